import { Agent, defineAgentTools } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

// An agent tool's options are defineTool's: strictArguments and concurrency reach the tool.
class Counter extends Agent {
  instructions = 'You count.'
  running = 0
  most = 0
  async count({ n }: { n: number }) {
    this.running++
    this.most = Math.max(this.most, this.running)
    await new Promise((resolve) => setImmediate(resolve))
    this.running--
    return String(n)
  }
}
defineAgentTools(Counter, {
  count: { description: 'Count', parameters: z.object({ n: z.number() }), strictArguments: true, concurrency: 1 },
})

describe('agent tool options', () => {
  it('carry strictArguments and concurrency to the tool, like defineTool', async () => {
    const counter = new Counter()
    const block = (n: number, extra?: true) => ({
      type: 'toolCall' as const,
      name: 'count',
      arguments: extra ? { n, extra } : { n },
    })
    const provider = scripted([{ content: [block(1, true), block(2), block(3)], stopReason: 'toolUse' }, 'done'])
    const runtime = new Runtime({ provider, model: 'm', toolExecution: 'parallel' })
    const result = await runtime.exec('count', { tools: [counter] })
    const results = result.messages.filter((m) => m.role === 'toolResult')
    expect(results[0]).toMatchObject({ isError: true })
    expect(JSON.stringify(results[0]!.content)).toContain('extra: not a declared argument')
    expect(results.slice(1).map((r) => r.content)).toEqual([
      [{ type: 'text', text: '2' }],
      [{ type: 'text', text: '3' }],
    ])
    expect(counter.most).toBe(1)
  })
})
