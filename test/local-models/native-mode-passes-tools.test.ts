import { Runtime, defineTool } from '@nestor/core'
import { openaiCompatible } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { nativeToolCall, textAnswer } from '../replay/chat-sse.js'
import { startLocalServer, type LocalServer } from './local-server.js'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
})
type ChatBody = {
  tools?: { type: string; function: { name: string } }[]
  messages: { role: string; content: unknown }[]
}

describe('openaiCompatible: native tool calling', () => {
  let server: LocalServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it("toolProtocol 'native' sends tools in the request and reads native calls back", async () => {
    server = await startLocalServer(['completion'])
    server.chat(nativeToolCall('call_1', 'add', ['{"a":2,', '"b":5}']), textAnswer(['7']))
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, toolProtocol: 'native' })
    const result = await new Runtime({ provider, model: 'llama3.1' }).exec('2+5', { tools: [add] })
    expect(result.text).toBe('7')
    const body = server.chatRequests()[0]?.json as ChatBody
    expect(body.tools?.map((t) => t.function.name)).toEqual(['add'])
    expect(JSON.stringify(body.messages)).not.toContain('tool_call\\n')
    expect(server.showRequests()).toHaveLength(0)
  })

  it('\'auto\' goes native when /api/show lists "tools", asking once per model', async () => {
    server = await startLocalServer(['completion', 'tools', 'thinking'])
    server.chat(nativeToolCall('call_1', 'add', ['{"a":1,"b":1}']), textAnswer(['2']), textAnswer(['again']))
    const provider = openaiCompatible({ baseURL: `${server.url}/v1` })
    const runtime = new Runtime({ provider, model: 'qwen3' })
    await runtime.exec('1+1', { tools: [add] })
    await runtime.exec('again', { tools: [add] })
    expect((server.chatRequests()[0]?.json as ChatBody).tools).toHaveLength(1)
    expect(server.showRequests().map((r) => r.json)).toEqual([{ model: 'qwen3' }])
    expect(await provider.capabilities?.('qwen3')).toEqual({ tools: true, thinking: true, contextWindow: 8192 })
    expect(server.showRequests()).toHaveLength(1)
  })

  it('never sends OPENAI_API_KEY to a local server; an explicit apiKey is a bearer token and is redacted', async () => {
    server = await startLocalServer(['completion'])
    server.chat(textAnswer(['hi']), textAnswer(['hi']))
    const saved = process.env.OPENAI_API_KEY
    process.env.OPENAI_API_KEY = 'sk-real-openai-key-never-local'
    try {
      await new Runtime({ provider: openaiCompatible({ baseURL: `${server.url}/v1` }), model: 'm' }).exec('hi', {
        tools: [],
      })
      const sent = server.chatRequests()[0]?.headers.authorization ?? ''
      expect(sent).not.toContain('sk-real-openai-key-never-local')
      const keyed = openaiCompatible({ baseURL: `${server.url}/v1`, apiKey: 'local-secret-token-1' })
      await new Runtime({ provider: keyed, model: 'm' }).exec('hi', { tools: [] })
      expect(server.chatRequests()[1]?.headers.authorization).toBe('Bearer local-secret-token-1')
      expect(keyed.secrets?.()).toEqual(['local-secret-token-1'])
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY
      else process.env.OPENAI_API_KEY = saved
    }
  })
})
