import { describe, expect, it } from 'vitest'
import { Runtime, defineTool, memoryJournal, type Journal, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

const resultText = (messages: Message[]) =>
  messages.flatMap((m) => (m.role === 'toolResult' ? m.content.map((c) => (c.type === 'text' ? c.text : '')) : []))

// A model that searches once, then answers from whatever the search returned.
function searcher(secrets?: string[]) {
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
  const runtime = new Runtime({ provider, model: 'm', ...(secrets && { secrets }) })
  return { runtime, counts, tools: [search] }
}

/** The same run as a journal written before journals kept the root's input: digest only. */
async function digestOnly(journal: Journal, runId: string): Promise<Journal> {
  const old = memoryJournal()
  for (const entry of await journal.load(runId)) {
    const { rootInput: _dropped, ...rest } = entry
    await old.append(runId, rest as typeof entry)
  }
  return old
}

describe('runtime.fork without source.input', () => {
  it('reads the root input from the journal, replays to the edit and goes on live, the original untouched', async () => {
    const journal = memoryJournal()
    const s = searcher()
    await s.runtime.exec('Plan Lisbon', { tools: s.tools, journal, runId: 'trip-1' })
    const recorded = await journal.load('trip-1')
    expect(recorded[0]).toMatchObject({ key: 'root#1:model', rootInput: [{ role: 'user', content: 'Plan Lisbon' }] })

    const forked = await s.runtime.fork(
      { journal, runId: 'trip-1', at: 'root#1:tool:call_s', edit: { toolResult: 'no results' } },
      { runId: 'trip-1b', tools: s.tools },
    )
    expect(forked.status).toBe('completed')
    expect(forked.text).toBe('answer from: no results')
    expect(forked.messages[0]).toEqual({ role: 'user', content: 'Plan Lisbon' })
    expect(s.counts).toEqual({ model: 3, search: 1 })
    expect(await journal.load('trip-1')).toEqual(recorded)
  })

  it('fails invalid_options asking for source.input on a digest-only journal, and works when it is given', async () => {
    const journal = memoryJournal()
    const s = searcher()
    await s.runtime.exec('Plan Lisbon', { tools: s.tools, journal, runId: 'trip-2' })
    const old = await digestOnly(journal, 'trip-2')
    const source = { journal: old, runId: 'trip-2', at: 'root#1:tool:call_s', edit: { toolResult: 'none' } }
    const missing = await s.runtime.fork(source, { runId: 'trip-2b', tools: s.tools })
    expect(missing.status).toBe('failed')
    expect(missing.error).toMatchObject({ code: 'invalid_options' })
    expect(missing.error?.message).toContain('keeps only a digest of its input')
    expect(missing.error?.message).toContain('pass source.input')
    expect(s.counts.model).toBe(2)
    const given = await s.runtime.fork({ ...source, input: 'Plan Lisbon' }, { runId: 'trip-2c', tools: s.tools })
    expect(given.text).toBe('answer from: none')
  })

  it('keeps secrets out of the journal: an input that held one is redacted there, and its fork needs source.input', async () => {
    const secret = 'sk-live-0123456789'
    const journal = memoryJournal()
    const s = searcher([secret])
    const input = `Plan Lisbon, key ${secret}`
    await s.runtime.exec(input, { tools: s.tools, journal, runId: 'trip-3' })
    const entries = await journal.load('trip-3')
    expect(JSON.stringify(entries)).not.toContain(secret)
    expect(entries[0]!.rootInput).toEqual([{ role: 'user', content: 'Plan Lisbon, key [REDACTED]' }])
    const source = { journal, runId: 'trip-3', at: 'root#1:tool:call_s', edit: { toolResult: 'none' } }
    const redacted = await s.runtime.fork(source, { runId: 'trip-3b', tools: s.tools })
    expect(redacted.error).toMatchObject({ code: 'invalid_options' })
    expect(redacted.error?.message).toContain('held a secret')
    expect((await s.runtime.fork({ ...source, input }, { runId: 'trip-3c', tools: s.tools })).text).toBe(
      'answer from: none',
    )
  })
})
