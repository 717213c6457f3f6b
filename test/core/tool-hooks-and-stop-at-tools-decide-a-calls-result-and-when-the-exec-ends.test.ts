import { describe, expect, it } from 'vitest'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { countingTools, toolResults } from '../support/counting-tools.js'
import { calls, historyProblems, textOf } from '../support/run.js'

describe('tool hooks and stopAtTools', () => {
  it('beforeToolCall may block a call with a reason; afterToolCall may replace a result', async () => {
    const { ran, a, b } = countingTools()
    const provider = scripted([calls({ name: 'a' }, { name: 'b' }), 'done'])
    const result = await new Runtime({
      provider,
      model: 'm',
      hooks: {
        beforeToolCall: (call) => (call.name === 'a' ? { block: true, reason: 'not today' } : undefined),
        afterToolCall: (_call, r) => ({ ...r, content: [{ type: 'text', text: 'rewritten' }] }),
      },
    }).exec('go', { tools: [a, b] })
    expect(ran).toEqual(['b'])
    expect(toolResults(result.history).map(textOf)).toEqual(['rewritten', 'rewritten'])
    expect(toolResults(result.history).map((r) => r.isError)).toEqual([true, false])
    expect(result.receipts[0]?.status).toBe('rejected')
  })

  it('a call to a stopAtTools tool ends the exec with its result as the output', async () => {
    const { ran, a, b } = countingTools()
    const provider = scripted([calls({ name: 'b' }, { name: 'a' }), 'never'])
    const result = await new Runtime({ provider, model: 'm', stopAtTools: ['b'] }).exec('go', { tools: [a, b] })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('b result')
    expect(ran).toEqual(['b'])
    expect(provider.requests).toHaveLength(1)
    expect(historyProblems(result.history)).toEqual([])
  })
})
