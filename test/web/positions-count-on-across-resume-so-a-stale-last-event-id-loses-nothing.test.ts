import type { AgentEvent, RunState } from '@nestor/core'
import { runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { webTools } from '../../examples/web/trip-model.js'
import { parseFrames, serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

const drain = async (source: AsyncIterable<AgentEvent>) => {
  const events: AgentEvent[] = []
  for await (const event of source) events.push(event)
  return events
}

/** The trip paused at save_brief (no approve handler), on a runtime that can also resume it. */
async function pausedRun() {
  const runtime = tripRuntime({ approve: 'pause' })
  const run = startTrip(runtime)
  const first = await drain(run)
  const result = await run
  expect(result.status).toBe('paused')
  return { runtime, execId: run.execId, first, state: result.pending?.state as RunState }
}

describe('positions across runtime.resume()', () => {
  it('the resumed run counts on from the paused one; its own iterator starts at its own first event', async () => {
    const { runtime, execId, first, state } = await pausedRun()
    const resumed = runtime.resume(state, { approve: ['call_save'] }, { tools: webTools([]) })
    expect(resumed.execId).toBe(execId)
    const own = await drain(resumed)
    expect(own[0]?.type).toBe('agent_start')
    const attached = runtime.attach(execId, { after: 0 }) as AsyncIterable<AgentEvent> & { position: number }
    expect(attached.position).toBe(first.length + own.length)
    // Reading from 0 gives the paused run's events, then the resumed run's, each once.
    expect(await drain(attached)).toEqual([...first, ...own])
  })

  it('a client with a Last-Event-ID from before the pause gets the rest of the paused run, then the resumed run, over HTTP', async () => {
    const { runtime, execId, first, state } = await pausedRun()
    const { url, close } = await serve(
      toNodeListener(runRoutes({ runtime, authorize: () => true, sse: { heartbeatMs: 0 } })),
    )
    closers.push(close)
    const resumed = runtime.resume(state, { approve: ['call_save'] }, { tools: webTools([]) })
    const own = await drain(resumed)
    const stale = first.length - 2
    const response = await fetch(`${url}/runs/${execId}/events`, { headers: { 'Last-Event-ID': String(stale) } })
    expect(response.status).toBe(200)
    const ids = parseFrames(await response.text()).flatMap((f) => (f.id === undefined ? [] : [f.id]))
    expect(ids).toEqual(Array.from({ length: 2 + own.length }, (_, i) => stale + 1 + i))
  })
})
