import { Runtime, type AgentEvent, type Provider } from '@nestor/core'
import { boundedEvents, type ModelEvent } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { describe, expect, it } from 'vitest'

/** One turn of `deltas` text deltas: about deltas + 8 events per exec. */
const chatty = (deltas: number): Provider => ({
  name: 'chatty',
  async *stream(request): AsyncGenerator<ModelEvent> {
    const builder = new AssistantBuilder('chatty', request.model)
    yield builder.start()
    for (let i = 0; i < deltas; i++) yield builder.text(`d${i} `)
    yield builder.done('stop')
  },
})

const runtimeWith = (replayWindow: number, deltas = 200) =>
  new Runtime({ provider: chatty(deltas), model: 'm', retention: { replayWindow } })

const drain = async (source: AsyncIterable<AgentEvent>) => {
  const events: AgentEvent[] = []
  for await (const event of source) events.push(event)
  return events
}

describe('a run keeps its latest events plus what its own iterators have not read', () => {
  it('gives an iterator of the app started before the run settled every event, however slowly it reads', async () => {
    const run = runtimeWith(10).exec('go')
    const iterator = run[Symbol.asyncIterator]()
    await run
    const events: AgentEvent[] = []
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) events.push(r.value)
    expect(events[0]?.type).toBe('agent_start')
    expect(events.at(-1)?.type).toBe('agent_end')
    expect(events.filter((e) => e.type === 'message_delta')).toHaveLength(200)
  })

  it('holds nothing for an iterator that returned: the run keeps its window again', async () => {
    const runtime = runtimeWith(10)
    const run = runtime.exec('go')
    const iterator = run[Symbol.asyncIterator]()
    await iterator.next()
    await run
    await iterator.return?.()
    const end = (runtime.attach(run.execId, { after: 'latest' }) as { position: number }).position
    expect(() => runtime.attach(run.execId, { after: end - 10 })).not.toThrow()
    expect(() => runtime.attach(run.execId, { after: end - 11 })).toThrow(/no longer kept/)
  })

  it('fails a reader that faces a client, once it stalled past the window, instead of holding the run', async () => {
    const runtime = runtimeWith(10)
    const run = runtime.exec('go')
    const reader = run[boundedEvents]()
    await reader.next()
    await run
    await expect(reader.next()).rejects.toMatchObject({ code: 'events_expired' })
    // What stays is the window, not the stalled reader's backlog.
    const end = (runtime.attach(run.execId, { after: 'latest' }) as { position: number }).position
    expect(() => runtime.attach(run.execId, { after: end - 11 })).toThrow(/no longer kept/)
  })

  it('with retention off, an iterator still reads every event it keeps up with', async () => {
    const run = runtimeWith(0).exec('go')
    const events = await drain(run)
    expect(events.filter((e) => e.type === 'message_delta')).toHaveLength(200)
  })

  it('fails a late iterator with events_expired once the first events left the window', async () => {
    const run = runtimeWith(10).exec('go')
    await run
    await expect(drain(run)).rejects.toMatchObject({ code: 'events_expired' })
  })

  it('lets a late iterator read the whole run while it fits the window', async () => {
    const run = runtimeWith(5000).exec('go')
    const result = await run
    const events = await drain(run)
    expect(events[0]?.type).toBe('agent_start')
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', result: { text: result.text } })
  })

  it('keeps the same latest events for runtime.attach as for the run itself', async () => {
    const runtime = runtimeWith(10)
    const early = runtime.exec('go')
    const all = await drain(early)
    const attached = runtime.attach(early.execId, { after: all.length - 10 })
    expect(await drain(attached as AsyncIterable<AgentEvent>)).toEqual(all.slice(-10))
    expect(() => runtime.attach(early.execId, { after: all.length - 11 })).toThrow(/no longer kept/)
  })
})
