import type { Message } from '@nestor/core'
import type { ToolSpec } from '@nestor/core/integration-kit'
import { describe, expect, it } from 'vitest'
import { collect, modelId, provider, streamResponse, useBedrockWire, type Frame } from '../../support/bedrock-wire.js'

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Forecast for a place',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
}

const reasoningThenTool: Frame[] = [
  { event: 'messageStart', body: { role: 'assistant' } },
  { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Need the ' } } } },
  { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'forecast.' } } } },
  {
    event: 'contentBlockDelta',
    body: { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-opaque-1' } } },
  },
  { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
  {
    event: 'contentBlockStart',
    body: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_A1', name: 'get_weather' } } },
  },
  { event: 'contentBlockDelta', body: { contentBlockIndex: 1, delta: { toolUse: { input: '{"loca' } } } },
  { event: 'contentBlockDelta', body: { contentBlockIndex: 1, delta: { toolUse: { input: 'tion":"Zürich"}' } } } },
  { event: 'contentBlockStop', body: { contentBlockIndex: 1 } },
  { event: 'messageStop', body: { stopReason: 'tool_use' } },
  { event: 'metadata', body: { usage: { inputTokens: 30, outputTokens: 20, totalTokens: 50 } } },
]

describe('bedrock: tool calls and reasoning', () => {
  const wire = useBedrockWire()

  it('streams reasoning with its signature and a tool call split across deltas', async () => {
    wire.server.enqueue(streamResponse(reasoningThenTool, { chunkSize: 11 }))
    const { events, last } = await collect(
      provider(wire.server).stream({
        model: modelId,
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [weather],
        toolChoice: 'required',
      }),
    )
    expect(last.message.stopReason).toBe('toolUse')
    expect(last.message.content).toEqual([
      { type: 'thinking', thinking: 'Need the forecast.', signature: 'sig-opaque-1' },
      { type: 'toolCall', id: 'tooluse_A1', name: 'get_weather', arguments: { location: 'Zürich' } },
    ])
    expect(events.map((e) => e.type)).toEqual([
      'start',
      'thinking_delta',
      'thinking_delta',
      'toolcall_start',
      'toolcall_delta',
      'toolcall_delta',
      'toolcall_end',
      'done',
    ])
    expect(wire.server.requests[0]?.json).toMatchObject({
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'get_weather',
              description: 'Forecast for a place',
              inputSchema: { json: weather.parameters },
            },
          },
        ],
        toolChoice: { any: {} },
      },
    })
  })

  it('replays the reasoning, the call and both results as Converse blocks, keeping toolConfig for tool choice none', async () => {
    wire.server.enqueue(
      streamResponse([
        { event: 'messageStart', body: { role: 'assistant' } },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text: 'Sunny.' } } },
        { event: 'messageStop', body: { stopReason: 'end_turn' } },
      ]),
    )
    const history: Message[] = [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Need the forecast.', signature: 'sig-opaque-1' },
          { type: 'toolCall', id: 'tooluse_A1', name: 'get_weather', arguments: { location: 'Zürich' } },
          { type: 'toolCall', id: 'tooluse_B2', name: 'get_weather', arguments: { location: 'Bern' } },
        ],
        stopReason: 'toolUse',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        provider: 'bedrock',
        model: modelId,
      },
      {
        role: 'toolResult',
        toolCallId: 'tooluse_A1',
        toolName: 'get_weather',
        content: [{ type: 'text', text: 'sunny' }],
        isError: false,
      },
      { role: 'toolResult', toolCallId: 'tooluse_B2', toolName: 'get_weather', content: [], isError: true },
    ]
    const { last } = await collect(
      provider(wire.server).stream({ model: modelId, messages: history, tools: [weather], toolChoice: 'none' }),
    )
    expect(last.message.content).toEqual([{ type: 'text', text: 'Sunny.' }])
    const sent = wire.server.requests[0]?.json as { messages: unknown[]; toolConfig: unknown }
    expect(sent.messages).toEqual([
      { role: 'user', content: [{ text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'Need the forecast.', signature: 'sig-opaque-1' } } },
          { toolUse: { toolUseId: 'tooluse_A1', name: 'get_weather', input: { location: 'Zürich' } } },
          { toolUse: { toolUseId: 'tooluse_B2', name: 'get_weather', input: { location: 'Bern' } } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'tooluse_A1', content: [{ text: 'sunny' }] } },
          { toolResult: { toolUseId: 'tooluse_B2', content: [{ text: 'error' }], status: 'error' } },
        ],
      },
    ])
    // Converse has no 'none' and rejects tool history without toolConfig: the tools stay, choice auto.
    expect(sent.toolConfig).toMatchObject({ toolChoice: { auto: {} } })
  })
})
