import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, fileJournal, memoryJournal, type Journal, type JournalEntry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { scratchDir } from '../support/scratch-dir.js'

// Whoever can write the journal store can otherwise replay a payment the approver refused: flip
// the recorded decision, drop the recorded rejection, and the replay runs the call without asking.
// With the runtime's stateSecret each entry is signed, and such a journal fails invalid_state.
const SECRET = 'journal-secret-0123456789'

function payments() {
  const charged: number[] = []
  let asked = 0
  const charge = defineTool({
    name: 'charge',
    description: 'Charge the card',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => (charged.push(amount), `charged ${amount}`),
  })
  const runtime = (stateSecret?: string) =>
    new Runtime({
      provider: scripted([calls({ name: 'charge', id: 'c1', args: { amount: 900 } }), 'done', 'done again']),
      model: 'm',
      approve: () => (asked++, { approved: false, reason: 'too much' }),
      ...(stateSecret !== undefined && { stateSecret }),
    })
  return { charged, asked: () => asked, tools: [charge], runtime }
}

/** The attack on the stored lines: the refusal dropped, the decision turned into an approval. */
function forgeApproval(path: string): void {
  const lines = readFileSync(path, 'utf8').trim().split('\n')
  const kept = lines.flatMap((line) => {
    const entry = JSON.parse(line) as JournalEntry
    if (entry.key === 'root#1:tool:c1') return []
    if (entry.key === 'root#1:decision:c1') return [JSON.stringify({ ...entry, decision: { approved: true } })]
    return [line]
  })
  writeFileSync(path, kept.join('\n') + '\n')
}

describe('journal entries on a runtime with a stateSecret', () => {
  it('are signed on disk; a forged approval fails invalid_state naming its key, and nothing is charged or asked', async () => {
    const path = join(scratchDir('nestor-sealed-'), 'pay.ndjson')
    const first = payments()
    const recorded = await first
      .runtime(SECRET)
      .exec('pay', { tools: first.tools, journal: fileJournal(path), runId: 'pay-1' })
    expect(recorded.status).toBe('completed')
    expect(first.charged).toEqual([])
    const stored = readFileSync(path, 'utf8').trim().split('\n').slice(1)
    expect(stored.every((line) => typeof (JSON.parse(line) as { mac?: unknown }).mac === 'string')).toBe(true)

    // The same run replays untouched: nothing asked, nothing charged.
    const again = payments()
    const replayed = await again
      .runtime(SECRET)
      .exec('pay', { tools: again.tools, journal: fileJournal(path), runId: 'pay-1' })
    expect(replayed.status).toBe('completed')
    expect([again.asked(), again.charged]).toEqual([0, []])

    forgeApproval(path)
    const attacked = payments()
    const result = await attacked
      .runtime(SECRET)
      .exec('pay', { tools: attacked.tools, journal: fileJournal(path), runId: 'pay-1' })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('invalid_state')
    expect(result.error?.message).toContain('root#1:decision:c1')
    expect(attacked.charged).toEqual([])
    expect(attacked.asked()).toBe(0)
  })

  it('without a secret the same forgery is replayed (what the store is trusted with, docs/durability.md)', async () => {
    const path = join(scratchDir('nestor-unsealed-'), 'pay.ndjson')
    const first = payments()
    await first.runtime().exec('pay', { tools: first.tools, journal: fileJournal(path), runId: 'pay-1' })
    forgeApproval(path)
    const attacked = payments()
    await attacked.runtime().exec('pay', { tools: attacked.tools, journal: fileJournal(path), runId: 'pay-1' })
    expect(attacked.charged).toEqual([900])
  })

  it('an unsigned journal, a step moved from another run, or another secret are refused', async () => {
    const unsigned = memoryJournal()
    const p = payments()
    await p.runtime().exec('pay', { tools: p.tools, journal: unsigned, runId: 'pay-1' })
    const signed = memoryJournal()
    await payments().runtime(SECRET).exec('pay', { tools: p.tools, journal: signed, runId: 'pay-1' })
    const moved: Journal = memoryJournal()
    for (const entry of await signed.load('pay-1')) await moved.append('pay-2', entry)

    const cases: [Journal, string, string, RegExp][] = [
      [unsigned, 'pay-1', SECRET, /is not signed/],
      [moved, 'pay-2', SECRET, /does not match its signature/],
      [signed, 'pay-1', 'another-secret-9876543210', /does not match its signature/],
    ]
    for (const [journal, runId, secret, why] of cases) {
      const attempt = payments()
      const result = await attempt.runtime(secret).exec('pay', { tools: attempt.tools, journal, runId })
      expect(result.error?.code).toBe('invalid_state')
      expect(result.error?.message).toMatch(why)
      expect(result.error?.message).toContain('root#1:model')
      expect(attempt.charged).toEqual([])
    }
  })

  it('a fork verifies the recorded steps and signs its copies for the new run', async () => {
    const journal = memoryJournal()
    const p = payments()
    await p.runtime(SECRET).exec('pay', { tools: p.tools, journal, runId: 'pay-1' })
    const fork = payments()
    const source = {
      journal,
      runId: 'pay-1',
      at: 'root#1:decision:c1',
      edit: { decision: { approved: true as const } },
    }
    const forked = await fork.runtime(SECRET).fork(source, { runId: 'pay-2', tools: fork.tools, journal })
    expect(forked.status).toBe('completed')
    expect(fork.charged).toEqual([900])
    const copies = await journal.load('pay-2')
    expect(copies.every((entry) => typeof entry.mac === 'string')).toBe(true)

    // The fork's own journal replays under the secret like any other run.
    const again = payments()
    const replayed = await again.runtime(SECRET).exec('pay', { tools: again.tools, journal, runId: 'pay-2' })
    expect(replayed.status).toBe('completed')
    expect(again.charged).toEqual([])
  })
})
