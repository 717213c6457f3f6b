import { Agent, tool } from '@nestor/agents'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, firstUserText, lastToolResult } from '../support/agent-runs.js'

class Calculator extends Agent {
  instructions = 'You add numbers with the add tool.'

  @tool({ description: 'Add two numbers', parameters: z.object({ a: z.number(), b: z.number() }) })
  add({ a, b }: { a: number; b: number }) {
    return a + b
  }

  @tool({ description: 'Add, then check with a nested exec', parameters: z.object({ a: z.number() }) })
  async check({ a }: { a: number }) {
    return (await this.exec(`check ${a} + ${a}`)).text
  }
}

const echo = defineTool({
  name: 'echo',
  description: 'Echo a word',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => word,
})

/** The tool names of each request, in order. */
const offered = (provider: ReturnType<typeof scripted>) => provider.requests.map((r) => r.tools.map((t) => t.name))

describe("Agent.exec and the agent's own tools", () => {
  it('offers its @tool methods when the call names no tools, so the model can call one', async () => {
    const provider = scripted([call('add', { a: 2, b: 2 }), 'The answer is 4.'])
    const result = await new Calculator({ provider, model: 'm' }).exec('2 + 2?')
    expect(result.status).toBe('completed')
    expect(offered(provider)[0]).toEqual(['add', 'check'])
    expect(result.messages.find((m) => m.role === 'toolResult')).toMatchObject({
      toolName: 'add',
      isError: false,
      content: [{ type: 'text', text: '4' }],
    })
  })

  it('offers exactly the tools a call names, and none with toolset none', async () => {
    const provider = scripted(['ok', 'ok'])
    const calculator = new Calculator({ provider, model: 'm' })
    await calculator.exec('echo?', { tools: [echo] })
    await calculator.exec('nothing', { toolset: 'none' })
    expect(offered(provider)).toEqual([['echo'], []])
  })

  it('inside one of its own methods offers its other tools, not the method that is running', async () => {
    const provider = scripted((request) => {
      const answer = lastToolResult(request)
      if (firstUserText(request).startsWith('check'))
        return answer === undefined ? call('add', { a: 3, b: 3 }) : `sum ${answer}`
      return answer === undefined ? call('check', { a: 3 }) : `checked: ${answer}`
    })
    const runtime = new Runtime({ provider, model: 'm' })
    const { events, result } = await collect(runtime.exec('Verify 3', { tools: [new Calculator()] }))
    expect(result.text).toBe('checked: sum 6')
    expect(offered(provider)[1]).toEqual(['add'])
    expect(events.find((e) => e.type === 'tool_end' && e.depth === 1)).toMatchObject({ toolName: 'add' })
  })

  it('an agent without tools still inherits the running exec tools by the nesting rules', async () => {
    class Plain extends Agent {
      instructions = 'You answer.'
    }
    const plain = new Plain()
    const ask = defineTool({
      name: 'ask',
      description: 'Ask the plain agent',
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) => (await plain.exec(q)).text,
    })
    const provider = scripted([call('ask', { q: 'hi' }), 'inner', 'outer'])
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [ask, echo] })
    expect(offered(provider)).toEqual([['ask', 'echo'], ['echo'], ['ask', 'echo']])
  })
})
