import { describe, expect, it } from 'vitest'
import { Runtime, memoryJournal } from '@nestor/core'
import { historyProblems } from '../support/run.js'
import { twoLevels } from './support/nested.js'

describe('a journal whose recorded step the replaying code contradicts', () => {
  it('fails the whole tree with journal_mismatch naming the key, without a model call or a leaf body', async () => {
    const journal = memoryJournal()
    let input = 'inner'
    const tree = twoLevels(() => input)
    const runtime = new Runtime({ provider: tree.provider, model: 'm' })
    expect((await runtime.exec('go', { tools: tree.tools, journal, runId: 'r' })).status).toBe('completed')

    // The body now opens its child with other input (a non-deterministic body, or changed code).
    input = 'inner, but different'
    const result = await runtime.exec('go', { tools: tree.tools, journal, runId: 'r' })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('journal_mismatch')
    expect(result.error?.message).toContain('root/c1:0#1:model')
    expect(tree.counts).toEqual({ model: 4, outer: 2, write: 1 })
    expect(historyProblems(result.history)).toEqual([])
  })

  it('fails when the recorded call at a key is another tool or other arguments', async () => {
    const journal = memoryJournal()
    const tree = twoLevels()
    const runtime = new Runtime({ provider: tree.provider, model: 'm' })
    await runtime.exec('go', { tools: tree.tools, journal, runId: 'r' })
    const entries = await journal.load('r')
    const tampered = memoryJournal()
    for (const entry of entries)
      await tampered.append(
        'r',
        entry.key === 'root/c1:0#1:tool:w1' ? { ...entry, signature: 'write:{"text":"y"}' } : entry,
      )
    const result = await runtime.exec('go', { tools: tree.tools, journal: tampered, runId: 'r' })
    expect(result.error?.code).toBe('journal_mismatch')
    expect(result.error?.message).toContain('root/c1:0#1:tool:w1')
    expect(tree.counts.write).toBe(1)
  })
})
