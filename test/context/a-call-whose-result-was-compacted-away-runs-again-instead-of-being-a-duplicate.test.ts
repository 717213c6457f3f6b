import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

let bodies = 0
const read = defineTool({
  name: 'read',
  description: 'Reads a page',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => {
    bodies++
    return `page ${n}: ${'text '.repeat(400)}`
  },
})
const readCall = (n: number) => ({ ...calls({ name: 'read', args: { n } }), usage: { input: 0 } })

describe('compaction and the duplicate gate', () => {
  it('a call whose result was compacted away runs again instead of being rejected as duplicate_call', async () => {
    bodies = 0
    const provider = scripted([...[1, 2, 3, 4, 5, 6].map(readCall), readCall(1), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('read', {
      tools: [read],
      context: { maxTokens: 2000, reserveTokens: 200, strategy: 'truncate' },
    })
    expect(result.status).toBe('completed')
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'])
    expect(bodies).toBe(7)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a repeat of a call whose result the model still sees is still a duplicate_call', async () => {
    const provider = scripted([readCall(1), readCall(2), readCall(2), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('read', {
      tools: [read],
      context: { maxTokens: 2000, reserveTokens: 200, strategy: 'truncate' },
    })
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'ok', 'duplicate_call'])
  })
})
