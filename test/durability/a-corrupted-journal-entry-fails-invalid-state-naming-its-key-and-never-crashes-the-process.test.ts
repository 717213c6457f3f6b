import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, fileJournal, memoryJournal, type Journal, type JournalEntry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'
import { scratchDir } from '../support/scratch-dir.js'
import { startNode } from './support/processes.js'

// A journal is read back from a store: a hand edit, a bad migration or a bug elsewhere can leave
// an entry the loop cannot replay. It must fail that run `invalid_state` naming the key, never
// reject the run or crash the process (which, with recovery replaying the journal, loops).
const replayer = fileURLToPath(new URL('./fixtures/replay-journal-process.mjs', import.meta.url))

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: found`,
})

/** Records the two-turn run (a lookup, then text) on `journal` as run `runId`. */
async function record(journal: Journal, runId: string) {
  const provider = scripted([calls({ name: 'lookup', id: 'l1', args: { word: 'nestor' } }), 'nestor is found'])
  const result = await new Runtime({ provider, model: 'm' }).exec('look up nestor', {
    tools: [lookup],
    journal,
    runId,
  })
  expect(result.status).toBe('completed')
}

/** The same entries with the one at `key` changed by `change`. */
async function tampered(
  from: Journal,
  runId: string,
  key: string,
  change: (entry: JournalEntry) => JournalEntry,
): Promise<Journal> {
  const journal = memoryJournal()
  for (const entry of await from.load(runId)) await journal.append(runId, entry.key === key ? change(entry) : entry)
  return journal
}

const replay = (journal: Journal, runId: string) =>
  new Runtime({ provider: scripted(['a live answer']), model: 'm' }).exec('look up nestor', {
    tools: [lookup],
    journal,
    runId,
  })

describe('a journal entry that cannot be replayed', () => {
  it('a recorded assistant message whose content is not an array fails the run invalid_state naming the key; the run resolves', async () => {
    const journal = memoryJournal()
    await record(journal, 'r')
    const bad = await tampered(journal, 'r', 'root#1:model', (entry) => ({
      ...entry,
      message: { ...(entry.message as object), content: { type: 'text', text: 'hi' } },
    }))
    const run = replay(bad, 'r')
    const result = await run
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('invalid_state')
    expect(result.error?.message).toContain('root#1:model')
    expect(result.error?.message).toContain('message.content')
    expect(await run.result).toBe(result)
    expect(historyProblems(result.history)).toEqual([])
  })

  it.each([
    [
      'a tool result without content',
      'root#1:tool:l1',
      (e: JournalEntry) => ({ ...e, result: { role: 'toolResult' } }),
    ],
    [
      'a decision approved by a truthy string',
      'root#1:tool:l1',
      (e: JournalEntry) => ({ ...e, kind: 'decision' as const, decision: { approved: 'false' } }),
    ],
    ['a model step filed under a tool key', 'root#1:tool:l1', (e: JournalEntry) => ({ ...e, kind: 'model' as const })],
    ['an entry of no known kind', 'root#1:tool:l1', (e: JournalEntry) => ({ ...e, kind: 'charge' as 'tool' })],
  ])('%s fails invalid_state naming the key, and the body does not run from it', async (_what, key, change) => {
    const journal = memoryJournal()
    await record(journal, 'r')
    const result = await replay(await tampered(journal, 'r', key, change), 'r')
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('invalid_state')
    expect(result.error?.message).toContain(key)
    expect(result.receipts).toEqual([])
  })

  it('a journal whose load returns no array fails invalid_state', async () => {
    const broken: Journal = { load: async () => ({ entries: [] }) as unknown as JournalEntry[], append: async () => {} }
    const result = await replay(broken, 'r')
    expect(result.error?.code).toBe('invalid_state')
  })

  it('an app hook that corrupts the live history still ends the run with a failed result (the last-resort path does not walk it again)', async () => {
    // prepareTurn is handed the live history: one that breaks a message there breaks the loop
    // and the result built from it. The run still resolves, failed, with its counters.
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'lookup', id: 'l1', args: { word: 'nestor' } }), 'done']),
      model: 'm',
      hooks: {
        prepareTurn: ({ iteration, messages }) => {
          const first = messages.find((m) => m.role === 'assistant')
          if (iteration === 2 && first) (first as { content: unknown }).content = 42
        },
      },
    })
    const run = runtime.exec('look up nestor', { tools: [lookup] })
    const result = await run
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('internal')
    expect(result.iterationsUsed).toBe(2)
    expect(result.receipts.map((r) => r.status)).toEqual(['ok'])
    expect(await run.result).toBe(result)
  })

  it('in a fresh node process with no unhandledRejection handler, a file journal with a corrupted entry ends with a failed result and exit code 0', async () => {
    const dir = scratchDir('nestor-corrupt-')
    const path = join(dir, 'run.ndjson')
    await record(fileJournal(path), 'run-1')
    // The recorded model turn, corrupted on disk.
    const lines = readFileSync(path, 'utf8').trim().split('\n')
    const at = lines.findIndex((line) => line.includes('"root#1:model"'))
    const entry = JSON.parse(lines[at]!) as { message: { content: unknown } }
    entry.message.content = { type: 'toolCall', id: 'l1', name: 'lookup', arguments: { word: 'nestor' } }
    lines[at] = JSON.stringify(entry)
    writeFileSync(path, lines.join('\n') + '\n')

    // startNode rejects on any exit code other than 0.
    const summary = await startNode(replayer, [path, 'run-1']).done
    expect(summary.status).toBe('failed')
    expect(summary.code).toBe('invalid_state')
    expect(summary.message).toContain('root#1:model')
  })
})
