import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Runtime, defineTool } from '@nestor/core'
import { anthropic } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { scenario, type Body } from '../../support/anthropic-wire.js'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: async (args) => {
    const { a, b } = args as { a: number; b: number }
    return String(a + b)
  },
})
const now = defineTool({
  name: 'now',
  description: 'The current time',
  parameters: { type: 'object', properties: {} },
  execute: async () => {
    throw new Error('clock unavailable')
  },
})

describe('Runtime over the anthropic provider and the wire', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('runs two parallel calls, sends both results in one user message and returns the answer', async () => {
    server.enqueue({ body: scenario('parallel-tools.sse') }, { body: scenario('text.sse') })
    const runtime = new Runtime({
      provider: anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }),
      model: 'claude-haiku-4-5',
      system: 'Be exact.',
    })
    const run = runtime.exec('What is 2 + 40, and what time is it?', { tools: [add, now], parallelToolCalls: false })
    const types: string[] = []
    for await (const event of run) types.push(event.type)
    const result = await run

    expect(result.status).toBe('completed')
    expect(result.text).toBe('Bonjour, le monde — ça va ? 🦜')
    expect(result.history.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant'])
    expect(result.history[2]).toMatchObject({
      toolCallId: 'toolu_nestor_add_01',
      isError: false,
      content: [{ type: 'text', text: '42' }],
    })
    expect(result.history[3]).toMatchObject({ toolCallId: 'toolu_nestor_clock_02', isError: true })
    expect(types.filter((t) => t === 'tool_end')).toHaveLength(2)
    expect(result.usage).toMatchObject({ input: 525, output: 113, cacheRead: 100, cacheWrite: 50 })

    expect(server.requests).toHaveLength(2)
    const first = server.requests[0]!.json as Body
    expect(first.system).toBe('Be exact.')
    expect(first.tools?.map((t) => t.name)).toEqual(['add', 'now'])
    expect(first.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true })
    const second = server.requests[1]!.json as Body
    expect(second.messages).toHaveLength(3)
    expect(second.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_nestor_add_01', name: 'add', input: { a: 2, b: 40 } },
        { type: 'tool_use', id: 'toolu_nestor_clock_02', name: 'now', input: {} },
      ],
    })
    const results = second.messages[2]!
    expect(results.role).toBe('user')
    expect(results.content).toHaveLength(2)
    expect(results.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_nestor_add_01', content: '42' })
    expect(results.content[1]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_nestor_clock_02',
      is_error: true,
    })
    expect(String(results.content[1]!.content)).toContain('clock unavailable')
  })

  it('answers the calls of a length-truncated message with error results instead of running them', async () => {
    server.requests.length = 0
    let ran = false
    const write = defineTool({
      name: 'write_file',
      description: 'Write a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      execute: async () => {
        ran = true
        return 'ok'
      },
    })
    server.enqueue({ body: scenario('truncated-tool-input.sse') }, { body: scenario('text.sse') })
    const runtime = new Runtime({
      provider: anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }),
      model: 'claude-haiku-4-5',
    })
    const result = await runtime.exec('Write notes.txt', { tools: [write] })
    expect(ran).toBe(false)
    const answer = result.history.find((m) => m.role === 'toolResult')
    expect(answer).toMatchObject({ toolCallId: 'toolu_nestor_write_01', isError: true })
  })
})
