import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, exec, memoryJournal } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { asker, resultsIn } from './support/nested.js'

// Tool call ids come from the model (or whoever can steer it). Two calls of one run whose ids are
// crafted with the key's separators (`/`, `:`, `#`) must still get two journal keys and two
// idempotency keys: a payments API deduping on the key would otherwise drop the second charge.
const CRAFTED = 'a:0#1:tool:b'

function tree() {
  const charges: { amount: number; key: string }[] = []
  let modelCalls = 0
  const provider = scripted((r: ModelRequest) => {
    modelCalls++
    const seen = resultsIn(r)
    const who = asker(r)
    if (who === 'go')
      return seen.length === 0
        ? {
            content: [
              { type: 'toolCall', id: 'a', name: 'delegate', arguments: { amount: 10 } },
              { type: 'toolCall', id: CRAFTED, name: 'delegate', arguments: { amount: 20 } },
            ],
          }
        : `root saw ${seen.join(', ')}`
    // The first child's call id reaches across the second child's exec path; the second's is plain.
    const amount = Number(who.split(' ')[1])
    const id = amount === 10 ? 'b:0#1:tool:c' : 'c'
    return seen.length === 0
      ? { content: [{ type: 'toolCall', id, name: 'charge', arguments: { amount } }] }
      : `child saw ${seen.join(', ')}`
  })
  const charge = defineTool({
    name: 'charge',
    description: 'Charge the card',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }, ctx) => {
      charges.push({ amount, key: ctx.idempotencyKey })
      return `charged ${amount}`
    },
  })
  const delegate = defineTool({
    name: 'delegate',
    description: 'Opens a child that charges',
    parameters: z.object({ amount: z.number() }),
    execute: async ({ amount }) => (await exec(`charge ${amount}`, { tools: [charge] })).text,
  })
  return { charges, provider, tools: [delegate], modelCalls: () => modelCalls }
}

describe('tool call ids holding the journal key separators', () => {
  it('give two calls two journal keys and two idempotency keys, and the run replays without charging again', async () => {
    const journal = memoryJournal()
    const first = tree()
    const runtime = new Runtime({ provider: first.provider, model: 'm' })
    const result = await runtime.exec('go', { tools: first.tools, journal, runId: 'r' })
    expect(result.status).toBe('completed')
    expect(first.charges.map((c) => c.amount)).toEqual([10, 20])
    const [one, two] = first.charges
    expect(one!.key).not.toBe(two!.key)

    const keys = (await journal.load('r')).map((entry) => entry.key)
    expect(new Set(keys).size).toBe(keys.length)
    // Separators inside an id are escaped; plain ids (the common case) keep the keys they always had.
    expect(keys.filter((key) => key.endsWith(':tool:c') || key.endsWith('%3atool%3ac'))).toEqual([
      'root/a:0#1:tool:b%3a0%231%3atool%3ac',
      'root/a%3a0%231%3atool%3ab:0#1:tool:c',
    ])
    expect(keys).toContain('root#1:tool:a')

    // A second process on the same journal: every step replays, nothing is charged again.
    const second = tree()
    const replayed = await new Runtime({ provider: second.provider, model: 'm' }).exec('go', {
      tools: second.tools,
      journal,
      runId: 'r',
    })
    expect(replayed.status).toBe('completed')
    expect(replayed.text).toBe(result.text)
    expect(second.charges).toEqual([])
    expect(second.modelCalls()).toBe(0)
  })
})
