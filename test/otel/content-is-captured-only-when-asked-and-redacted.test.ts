import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { memoryTracing } from '../support/memory-tracing.js'

const PASSWORD = 'hunter2-correct-horse'

function build() {
  const login = defineTool({
    name: 'login',
    description: 'Log in',
    parameters: z.object({ user: z.string(), password: z.string() }),
    execute: ({ user, password }) => `welcome ${user}, your password ${password} works`,
  })
  const provider = scripted([
    calls({ name: 'login', args: { user: 'ada', password: PASSWORD } }),
    `logged in with ${PASSWORD}`,
  ])
  return { runtime: new Runtime({ provider, model: 'm', secrets: [PASSWORD] }), login }
}

const contentKeys = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
]

describe('otel: content capture', () => {
  it('records messages, arguments and results with captureContent, every secret redacted', async () => {
    const tracing = memoryTracing()
    const { runtime, login } = build()
    const stop = instrument(runtime, { tracer: tracing.tracer, captureContent: true })
    await runtime.exec(`log in as ada, password ${PASSWORD}`, { tools: [login] })
    stop()
    const spans = tracing.spans()
    const agent = spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!
    expect(JSON.parse(String(agent.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'log in as ada, password [REDACTED]' }] },
    ])
    const tool = spans.find((s) => s.name === 'execute_tool login')!
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual({
      user: 'ada',
      password: '[REDACTED]',
    })
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('welcome ada, your password [REDACTED] works')
    const [first, last] = spans.filter((s) => s.name === 'chat m')
    expect(JSON.parse(String(first!.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool_call',
            id: expect.any(String),
            name: 'login',
            arguments: { user: 'ada', password: '[REDACTED]' },
          },
        ],
        finish_reason: 'tool_call',
      },
    ])
    expect(JSON.parse(String(last!.attributes['gen_ai.output.messages']))[0].parts).toEqual([
      { type: 'text', content: 'logged in with [REDACTED]' },
    ])
    const everything = JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events, s.status]))
    expect(everything).not.toContain(PASSWORD)
  })

  it('records none of them without captureContent', async () => {
    const tracing = memoryTracing()
    const { runtime, login } = build()
    const stop = instrument(runtime, { tracer: tracing.tracer })
    await runtime.exec(`log in as ada, password ${PASSWORD}`, { tools: [login] })
    stop()
    const spans = tracing.spans()
    expect(spans).toHaveLength(4)
    for (const span of spans) for (const key of contentKeys) expect(span.attributes[key]).toBeUndefined()
  })
})
