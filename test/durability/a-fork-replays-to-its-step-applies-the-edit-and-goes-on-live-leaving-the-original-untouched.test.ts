import { describe, expect, it } from 'vitest'
import { NestorError, Runtime, defineTool, memoryJournal, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

const resultText = (messages: Message[]) =>
  messages.flatMap((m) => (m.role === 'toolResult' ? m.content.map((c) => (c.type === 'text' ? c.text : '')) : []))

// A model that searches once, then answers from whatever the search returned.
function searcher() {
  const counts = { model: 0, search: 0 }
  const provider = scripted((request) => {
    counts.model++
    const seen = resultText(request.messages)
    if (seen.length === 0)
      return { content: [{ type: 'toolCall', id: 'call_s', name: 'search', arguments: { q: 'lisbon' } }] }
    return `answer from: ${seen.join(' | ')}`
  })
  const search = defineTool({
    name: 'search',
    description: 'Search',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      counts.search++
      return `${q}: sunny`
    },
  })
  return { provider, counts, tools: [search] }
}

describe('runtime.fork of a recorded run', () => {
  it('replays up to the edited tool step without model calls or tool bodies, then goes on live under the new id', async () => {
    const journal = memoryJournal()
    const s = searcher()
    const runtime = new Runtime({ provider: s.provider, model: 'm' })
    const original = await runtime.exec('Plan Lisbon', { tools: s.tools, journal, runId: 'trip-1' })
    expect(original.text).toBe('answer from: lisbon: sunny')
    const recorded = await journal.load('trip-1')
    expect(recorded.map((e) => e.key)).toEqual(['root#1:model', 'root#1:tool:call_s', 'root#2:model'])
    expect(s.counts).toEqual({ model: 2, search: 1 })

    const forked = await runtime.fork(
      { journal, runId: 'trip-1', input: 'Plan Lisbon', at: 'root#1:tool:call_s', edit: { toolResult: 'no results' } },
      { runId: 'trip-1-empty', tools: s.tools },
    )
    expect(forked.status).toBe('completed')
    expect(forked.text).toBe('answer from: no results')
    // One live model call (after the edit), and the search body never ran again.
    expect(s.counts).toEqual({ model: 3, search: 1 })
    expect(await journal.load('trip-1')).toEqual(recorded)
  })

  it('keeps the fork in the journal it is given, and replaces a model step or a decision', async () => {
    const source = memoryJournal()
    const s = searcher()
    const runtime = new Runtime({ provider: s.provider, model: 'm' })
    await runtime.exec('Plan Lisbon', { tools: s.tools, journal: source, runId: 'trip-2' })
    const target = memoryJournal()
    const forked = await runtime.fork(
      {
        journal: source,
        runId: 'trip-2',
        input: 'Plan Lisbon',
        at: 'root#1:model',
        edit: { message: 'no search today' },
      },
      { runId: 'trip-2b', tools: s.tools, journal: target },
    )
    expect(forked.text).toBe('no search today')
    expect(s.counts).toEqual({ model: 2, search: 1 })
    expect((await target.load('trip-2b')).map((e) => e.key)).toEqual(['root#1:model'])
    expect(await target.load('trip-2')).toEqual([])
  })

  it('fails invalid_options naming the step when `at` is not in the run or the edit does not fit it', async () => {
    const journal = memoryJournal()
    const s = searcher()
    const runtime = new Runtime({ provider: s.provider, model: 'm' })
    await runtime.exec('Plan Lisbon', { tools: s.tools, journal, runId: 'trip-3' })
    const missing = await runtime.fork(
      { journal, runId: 'trip-3', input: 'Plan Lisbon', at: 'root#9:model', edit: { message: 'x' } },
      { runId: 'trip-3b', tools: s.tools },
    )
    expect(missing.status).toBe('failed')
    expect(missing.error).toMatchObject({ code: 'invalid_options' })
    expect(missing.error?.message).toContain('root#9:model')
    const wrongKind = await runtime.fork(
      { journal, runId: 'trip-3', input: 'Plan Lisbon', at: 'root#1:model', edit: { toolResult: 'x' } },
      { runId: 'trip-3c', tools: s.tools },
    )
    expect(wrongKind.error).toMatchObject({ code: 'invalid_options' })
    expect(wrongKind.error?.message).toContain('only a tool step')
    expect(() =>
      runtime.fork(
        { journal, runId: 'trip-3', input: 'Plan Lisbon', at: 'root#1:model', edit: { message: 'x' } },
        { runId: 'trip-3', journal },
      ),
    ).toThrow(NestorError)
    expect(s.counts.model).toBe(2)
  })
})
