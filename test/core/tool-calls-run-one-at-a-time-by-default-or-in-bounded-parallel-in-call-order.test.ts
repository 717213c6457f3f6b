import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ToolResultMessage } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, textOf } from '../support/run.js'

function tracked() {
  let inFlight = 0
  let peak = 0
  const order: number[] = []
  const tool = defineTool({
    name: 'work',
    description: 'd',
    parameters: z.object({ n: z.number(), ms: z.number() }),
    execute: async ({ n, ms }) => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await new Promise((r) => setTimeout(r, ms))
      inFlight--
      order.push(n)
      return `r${n}`
    },
  })
  return { tool, order, peak: () => peak }
}

// Later calls finish first, so call order and finish order differ.
const turn = calls(...[1, 2, 3, 4, 5].map((n) => ({ name: 'work', args: { n, ms: 60 - n * 10 } })))

describe('tool execution', () => {
  it("'parallel' runs calls concurrently and appends results in call order", async () => {
    const t = tracked()
    const result = await new Runtime({ provider: scripted([turn, 'ok']), model: 'm', toolExecution: 'parallel' }).exec(
      'go',
      { tools: [t.tool] },
    )
    expect(t.peak()).toBe(5)
    expect(t.order).toEqual([5, 4, 3, 2, 1])
    const results = result.history.filter((m): m is ToolResultMessage => m.role === 'toolResult')
    expect(results.map(textOf)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5'])
  })

  it('maxToolConcurrency bounds the calls in flight', async () => {
    const t = tracked()
    await new Runtime({
      provider: scripted([turn, 'ok']),
      model: 'm',
      toolExecution: 'parallel',
      maxToolConcurrency: 2,
    }).exec('go', { tools: [t.tool] })
    expect(t.peak()).toBe(2)
  })

  it("'sequential' (the default) runs one call at a time in the model's order", async () => {
    const t = tracked()
    await new Runtime({ provider: scripted([turn, 'ok']), model: 'm' }).exec('go', { tools: [t.tool] })
    expect(t.peak()).toBe(1)
    expect(t.order).toEqual([1, 2, 3, 4, 5])
  })
})
