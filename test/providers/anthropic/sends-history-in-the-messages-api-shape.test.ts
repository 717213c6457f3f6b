import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssistantMessage, Message } from '@nestor/core'
import { anthropic } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, request, scenario, weatherTool, type Body } from '../../support/anthropic-wire.js'

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, total: 2 }
const signature = 'EoQDCm0IDhgCKkCDzGs2-opaque+/='

const assistantTurn: AssistantMessage = {
  role: 'assistant',
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
  stopReason: 'toolUse',
  usage,
  content: [
    { type: 'thinking', thinking: 'Need the weather twice.', signature },
    { type: 'thinking', thinking: '', signature: 'cmVkYWN0ZWQ=', redacted: true },
    { type: 'text', text: 'Checking both.' },
    { type: 'toolCall', id: 'toolu_a', name: 'get_weather', arguments: { location: 'Oslo' } },
    { type: 'toolCall', id: 'toolu_b', name: 'get_weather', arguments: { location: 'Lima', days: 2 } },
  ],
}

const history: Message[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Weather in Oslo and Lima?' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ],
  },
  assistantTurn,
  {
    role: 'toolResult',
    toolCallId: 'toolu_a',
    toolName: 'get_weather',
    content: [{ type: 'text', text: '3°C, snow' }],
    isError: false,
  },
  {
    role: 'toolResult',
    toolCallId: 'toolu_b',
    toolName: 'get_weather',
    content: [{ type: 'text', text: 'upstream timeout' }],
    isError: true,
  },
  { role: 'user', content: 'Also, be brief.' },
]

describe('anthropic provider request history', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
    server.fallback = () => ({ body: scenario('text.sse') })
  })
  afterAll(() => server.close())

  async function send(messages: Message[], extra: Partial<Parameters<typeof request>[0]> = {}): Promise<Body> {
    server.requests.length = 0
    const { final } = await collect(
      anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }).stream(request({ messages, ...extra })),
    )
    expect(final.type).toBe('done')
    return server.requests[0]!.json as Body
  }

  it('replays thinking with its signature, then redacted thinking, text and tool_use in the original order', async () => {
    const body = await send(history, { tools: [weatherTool], system: 'You are terse.' })
    expect(body.system).toBe('You are terse.')
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Need the weather twice.', signature },
        { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { location: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_b', name: 'get_weather', input: { location: 'Lima', days: 2 } },
      ],
    })
  })

  it('sends all tool results of a turn in ONE user message with is_error, followed by a later user text', async () => {
    const body = await send(history, { tools: [weatherTool] })
    expect(body.messages).toHaveLength(3)
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: '3°C, snow' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'upstream timeout', is_error: true },
        { type: 'text', text: 'Also, be brief.' },
      ],
    })
  })

  it('sends user images as base64 image blocks', async () => {
    const body = await send(history)
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Weather in Oslo and Lima?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    })
  })

  it('sends a tool result with an image as content blocks', async () => {
    const body = await send([
      { role: 'user', content: 'chart?' },
      { ...assistantTurn, content: [{ type: 'toolCall', id: 'toolu_c', name: 'chart', arguments: {} }] },
      {
        role: 'toolResult',
        toolCallId: 'toolu_c',
        toolName: 'chart',
        content: [
          { type: 'text', text: 'here' },
          { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
        ],
        isError: false,
      },
    ])
    expect(body.messages[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_c',
        content: [
          { type: 'text', text: 'here' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
        ],
      },
    ])
  })

  it('merges consecutive same-role messages and drops thinking it cannot verify', async () => {
    const foreign: AssistantMessage = {
      role: 'assistant',
      provider: 'openai',
      model: 'gpt-x',
      stopReason: 'stop',
      usage,
      content: [
        { type: 'thinking', thinking: 'foreign reasoning', signature: 'not-anthropic' },
        { type: 'text', text: 'Hello.' },
      ],
    }
    const unsigned: AssistantMessage = {
      ...foreign,
      provider: 'anthropic',
      content: [
        { type: 'thinking', thinking: 'cut off' },
        { type: 'text', text: 'More.' },
      ],
    }
    const body = await send([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      foreign,
      unsigned,
      { role: 'user', content: 'three' },
    ])
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hello.' },
          { type: 'text', text: 'More.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
    ])
  })

  it('enables thinking with a budget and raises max_tokens above it', async () => {
    server.requests.length = 0
    const provider = anthropic({
      baseURL: server.url,
      apiKey: 'sk-ant-test',
      thinking: { budgetTokens: 2048 },
      maxTokens: 1024,
    })
    await collect(provider.stream(request()))
    const body = server.requests[0]!.json as Body
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
    expect(body.max_tokens).toBe(3072)
    server.requests.length = 0
    await collect(provider.stream(request({ options: { thinking: false } })))
    expect(server.requests[0]!.json).not.toHaveProperty('thinking')
  })
})
