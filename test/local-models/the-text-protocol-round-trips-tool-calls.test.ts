import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { openaiCompatible } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { textAnswer } from '../replay/chat-sse.js'
import { startLocalServer, type LocalServer } from './local-server.js'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
})

type ChatBody = { tools?: unknown; messages: { role: string; content: unknown }[] }

describe('openaiCompatible: models without native tools get the text tool protocol', () => {
  let server: LocalServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('a ```tool_call block streamed in pieces becomes a real call; its result goes back as a user message', async () => {
    server = await startLocalServer(['completion'])
    server.chat(
      textAnswer([
        'Let me add them.\n\n``',
        '`tool_',
        'call\n{"name": "add", "argu',
        'ments": {"a": 2, "b": 3}}\n`',
        '``',
      ]),
      textAnswer(['2 + 3 = ', '5.']),
    )
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, toolProtocol: 'auto' })
    const runtime = new Runtime({ provider, model: 'llama3.2', system: 'You are exact.' })
    const events: AgentEvent[] = []
    const run = runtime.exec('What is 2 + 3?', { tools: [add] })
    for await (const event of run) events.push(event)
    const result = await run

    expect(result.status).toBe('completed')
    expect(result.text).toBe('2 + 3 = 5.')
    const toolEnd = events.find((e) => e.type === 'tool_end')
    expect(toolEnd).toMatchObject({
      toolName: 'add',
      isError: false,
      result: { content: [{ type: 'text', text: '5' }] },
    })
    // The block is removed from the streamed text and from the message.
    const streamed = events
      .flatMap((e) => (e.type === 'message_delta' && e.delta.kind === 'text' ? [e.delta.text] : []))
      .join('')
    expect(streamed).toBe('Let me add them.2 + 3 = 5.')
    const first = result.messages.find((m) => m.role === 'assistant')
    expect(first?.role === 'assistant' && first.content.map((c) => c.type)).toEqual(['text', 'toolCall'])
    expect(first?.role === 'assistant' && first.stopReason).toBe('toolUse')

    const [one, two] = server.chatRequests().map((r) => r.json as ChatBody)
    // No native tools on the wire: they are described in the system prompt instead.
    expect(one?.tools).toBeUndefined()
    const system = one?.messages[0]
    expect(system?.role).toBe('system')
    expect(String(system?.content)).toContain('You are exact.')
    expect(String(system?.content)).toContain('```tool_call')
    expect(String(system?.content)).toContain('- add: Add two numbers')
    // Second round: the call shown as the block the model wrote, the result as user text.
    expect(two?.messages.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(JSON.stringify(two?.messages[2]?.content)).toContain(
      '```tool_call\\n{\\"name\\":\\"add\\",\\"arguments\\":{\\"a\\":2,\\"b\\":3}}\\n```',
    )
    expect(two?.messages[3]?.content).toBe('Tool add returned:\n5')
    expect(server.showRequests()).toHaveLength(1)
  })

  it('a server without /api/show (vLLM, LM Studio) gets the text protocol under auto', async () => {
    server = await startLocalServer(undefined)
    server.chat(textAnswer(['```tool_call\n{"name":"add","arguments":{"a":1,"b":1}}\n```']), textAnswer(['2']))
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, toolProtocol: 'auto' })
    expect(await provider.protocolFor('qwen')).toBe('text')
    const result = await new Runtime({ provider, model: 'qwen' }).exec('1+1?', { tools: [add] })
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([['add', 'ok']])
    expect((server.chatRequests()[0]?.json as ChatBody).tools).toBeUndefined()
  })

  it('several blocks in one reply are several calls, in order, and results are merged into one message', async () => {
    server = await startLocalServer(['completion'])
    const block = (a: number, b: number) => `\`\`\`tool_call\n{"name":"add","arguments":{"a":${a},"b":${b}}}\n\`\`\``
    server.chat(textAnswer([`${block(1, 2)}\n${block(3, 4)}`]), textAnswer(['3 and 7']))
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, toolProtocol: 'text' })
    const result = await new Runtime({ provider, model: 'm' }).exec('sums', { tools: [add] })
    expect(result.receipts.map((r) => r.signature)).toEqual(['add:{"a":1,"b":2}', 'add:{"a":3,"b":4}'])
    const second = server.chatRequests()[1]?.json as ChatBody
    expect(second.messages.at(-1)).toEqual({ role: 'user', content: 'Tool add returned:\n3\n\nTool add returned:\n7' })
    // toolProtocol 'text' never asks the server.
    expect(server.showRequests()).toHaveLength(0)
  })
})
