import type { ModelRequest } from '@nestor/core/integration-kit'
import { openaiCompatible } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { textAnswer } from '../replay/chat-sse.js'
import { startLocalServer, type LocalServer } from './local-server.js'

const tools = [
  {
    name: 'add',
    description: 'Add two numbers',
    parameters: { type: 'object', properties: { a: { type: 'number' } } },
  },
  { name: 'mul', description: 'Multiply', parameters: { type: 'object' } },
]

describe('text protocol: tool choice and the parallel knob become instructions', () => {
  let server: LocalServer
  beforeAll(async () => {
    server = await startLocalServer(['completion'])
  })
  afterAll(() => server.close())

  const systemFor = async (extra: Partial<ModelRequest>): Promise<string | undefined> => {
    server.chat(textAnswer(['ok']))
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, toolProtocol: 'text' })
    for await (const _ of provider.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools,
      maxRetries: 0,
      ...extra,
    }));
    const body = server.chatRequests().at(-1)?.json as { messages: { role: string; content: string }[] }
    return body.messages.find((m) => m.role === 'system')?.content
  }

  it("'required' says a tool must be called", async () => {
    expect(await systemFor({ toolChoice: 'required' })).toContain('You must call at least one tool in this reply.')
  })
  it('a named choice names the tool', async () => {
    expect(await systemFor({ toolChoice: { type: 'function', name: 'mul' } })).toContain(
      'You must call the tool "mul" in this reply.',
    )
  })
  it('parallelToolCalls false allows one call per reply', async () => {
    expect(await systemFor({ parallelToolCalls: false })).toContain('Call at most one tool per reply.')
  })
  it("'none' describes no tools, and a block in the reply stays text", async () => {
    server.chat(textAnswer(['```tool_call\n{"name":"add","arguments":{}}\n```']))
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, toolProtocol: 'text' })
    let final: unknown
    for await (const e of provider.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools,
      toolChoice: 'none',
      maxRetries: 0,
    }))
      if (e.type === 'done') final = e.message
    const body = server.chatRequests().at(-1)?.json as { messages: { role: string }[] }
    expect(body.messages.some((m) => m.role === 'system')).toBe(false)
    expect(final).toMatchObject({
      stopReason: 'stop',
      content: [{ type: 'text', text: '```tool_call\n{"name":"add","arguments":{}}\n```' }],
    })
  })
})
