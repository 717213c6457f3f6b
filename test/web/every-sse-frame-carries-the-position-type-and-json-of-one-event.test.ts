import type { AgentEvent } from '@nestor/core'
import { toResponse, toSSE } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { parseFrames, readAll, startTrip, tripRuntime } from '../support/trip-web.js'

describe('toSSE: one frame per event of the root run, nested execs included', () => {
  it('gives id = position (1, 2, 3… across nested execs), event = type, data = the event as JSON, then an end frame', async () => {
    const runtime = tripRuntime()
    const run = startTrip(runtime)
    const frames = parseFrames(await readAll(toSSE(run, { heartbeatMs: 0 })))
    const events: AgentEvent[] = []
    for await (const event of run) events.push(event)

    expect(frames[0]).toEqual({ retry: 1000 })
    const eventFrames = frames.slice(1, -1)
    expect(eventFrames.map((f) => f.id)).toEqual(events.map((_, i) => i + 1))
    expect(eventFrames.map((f) => f.event)).toEqual(events.map((e) => e.type))
    // (Compared on identity fields: a message_start's message object is still filled in by the
    // loop after the event is published, so a late JSON snapshot differs in its usage.)
    const identity = (e: AgentEvent) => `${e.type} ${e.execId} ${e.seq} ${e.depth} ${e.timestamp}`
    expect(eventFrames.map((f) => identity(JSON.parse(f.data as string) as AgentEvent))).toEqual(events.map(identity))
    // Nested execs are in the stream, and their own seq restarts while the id keeps increasing.
    expect(new Set(events.map((e) => e.depth))).toEqual(new Set([0, 1, 2]))
    expect(events.filter((e) => e.seq === 1).length).toBeGreaterThan(1)
    const end = frames.at(-1)
    expect(end?.event).toBe('end')
    expect(end?.id).toBeUndefined()
    expect(JSON.parse(end?.data as string)).toEqual({
      execId: run.execId,
      lastEventId: events.length,
      status: 'completed',
    })
  })

  it('toResponse is a 200 text/event-stream Response with no caching and the same body', async () => {
    const run = startTrip(tripRuntime())
    const response = toResponse(run, { heartbeatMs: 0 })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform')
    const frames = parseFrames(await response.text())
    expect(frames.at(-2)?.event).toBe('agent_end')
    expect(frames.at(-1)?.event).toBe('end')
  })

  it('ends with a stream_error frame when the reader fell out of the replay window', async () => {
    const runtime = tripRuntime({ retention: { replayWindow: 20 } })
    const run = startTrip(runtime)
    const attached = runtime.attach(run.execId, { after: 0 })
    await run
    const frames = parseFrames(await readAll(toSSE(attached as NonNullable<typeof attached>, { heartbeatMs: 0 })))
    expect(frames.at(-1)?.event).toBe('stream_error')
    expect(JSON.parse(frames.at(-1)?.data as string)).toMatchObject({ code: 'events_expired' })
  })
})
