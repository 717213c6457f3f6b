import { NestorError, type AgentEvent } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { startTrip, tripRuntime } from '../support/trip-web.js'

const drain = async (source: AsyncIterable<AgentEvent>) => {
  const events: AgentEvent[] = []
  for await (const event of source) events.push(event)
  return events
}

describe('runtime.attach(execId, { after })', () => {
  it('reads a live run after a position: the same events as the run itself from there', async () => {
    const runtime = tripRuntime()
    const run = startTrip(runtime)
    const attached = runtime.attach(run.execId, { after: 0 })
    expect(attached?.live).toBe(true)
    const [all, fromAttach] = await Promise.all([drain(run), drain(attached as AsyncIterable<AgentEvent>)])
    expect(fromAttach).toEqual(all)
    const later = await drain(runtime.attach(run.execId, { after: 10 }) as AsyncIterable<AgentEvent>)
    expect(later).toEqual(all.slice(10))
    expect((await runtime.attach(run.execId, { after: all.length })?.result)?.status).toBe('completed')
  })

  it('keeps only the replay window of a run whose caller just awaits it: older positions say events_expired', async () => {
    const runtime = tripRuntime({ retention: { replayWindow: 20 } })
    const run = startTrip(runtime)
    const result = await run
    const end = runtime.attach(run.execId, { after: 'latest' })?.position as number
    expect(end).toBeGreaterThan(200)
    expect(() => runtime.attach(run.execId, { after: 0 })).toThrow(
      expect.objectContaining({ code: 'events_expired' }) as unknown as Error,
    )
    expect(() => runtime.attach(run.execId, { after: end - 21 })).toThrow(/no longer kept/)
    const tail = await drain(runtime.attach(run.execId, { after: end - 20 }) as AsyncIterable<AgentEvent>)
    expect(tail).toHaveLength(20)
    expect(tail.at(-1)).toMatchObject({ type: 'agent_end', depth: 0, result: { text: result.text } })
  })

  it('tells a reader that fell behind the window that events expired, rather than skipping them', async () => {
    const runtime = tripRuntime({ retention: { replayWindow: 20 } })
    const run = startTrip(runtime)
    const slow = (runtime.attach(run.execId, { after: 0 }) as AsyncIterable<AgentEvent>)[Symbol.asyncIterator]()
    await run
    await expect(slow.next()).rejects.toMatchObject({ code: 'events_expired' })
  })

  it('drops the oldest finished runs past maxFinishedRuns, and finished runs after keepFinishedMs', async () => {
    const runtime = tripRuntime({ retention: { maxFinishedRuns: 1 } })
    const a = startTrip(runtime)
    await a
    const b = startTrip(runtime)
    await b
    expect(runtime.attach(a.execId)).toBeUndefined()
    expect(runtime.attach(b.execId)).toBeDefined()

    const quick = tripRuntime({ retention: { keepFinishedMs: 1 } })
    const c = startTrip(quick)
    await c
    const deadline = Date.now() + 2000
    while (quick.attach(c.execId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    expect(quick.attach(c.execId)).toBeUndefined()
  })

  it('rejects an after that is not a position, and gives undefined for an unknown exec', () => {
    const runtime = tripRuntime()
    expect(runtime.attach('exec_unknown')).toBeUndefined()
    const run = startTrip(runtime)
    expect(() => runtime.attach(run.execId, { after: -1 })).toThrow(NestorError)
    expect(() => runtime.attach(run.execId, { after: 1.5 })).toThrow(/invalid option after/)
  })

  it('refuses invalid retention options when the runtime is made', () => {
    expect(() => tripRuntime({ retention: { replayWindow: -1 } })).toThrow(/retention.replayWindow/)
  })
})
