import type { Message } from '@nestor/core'
import { openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import * as chat from '../wire/openai/chat-scenarios.js'
import { body, collect, request, useWire } from '../../support/openai-wire.js'

const pixel = 'iVBORw0KGgo='

const history: Message[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Weather here?' },
      { type: 'image', data: pixel, mimeType: 'image/png' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'private reasoning' },
      { type: 'text', text: 'Let me check.' },
      { type: 'toolCall', id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
      {
        type: 'toolCall',
        id: 'call_b',
        name: 'get_time',
        arguments: { zone: 'Europe/Paris' },
        invalidArguments: '{"zone": "Eur',
      },
    ],
    stopReason: 'toolUse',
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, total: 2 },
    provider: 'openai',
    model: 'gpt-4o-mini',
  },
  {
    role: 'toolResult',
    toolCallId: 'call_a',
    toolName: 'get_weather',
    content: [
      { type: 'text', text: 'sunny' },
      { type: 'image', data: pixel, mimeType: 'image/png' },
    ],
    isError: false,
  },
  {
    role: 'toolResult',
    toolCallId: 'call_b',
    toolName: 'get_time',
    content: [{ type: 'text', text: 'arguments were not valid JSON' }],
    isError: true,
  },
  {
    role: 'assistant',
    content: [],
    stopReason: 'error',
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    provider: 'openai',
    model: 'gpt-4o-mini',
    errorMessage: 'network error',
  },
  { role: 'user', content: 'And now?' },
]

describe('openai chat: history goes back in the shape the API expects', () => {
  const wire = useWire()

  it('replays assistant tool_calls with string arguments, one tool message per result and images as data URLs', async () => {
    wire.server.enqueue({ body: chat.text() })
    await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request({ messages: history })))
    expect(body(wire.server).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather here?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pixel}` } },
        ],
      },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"zone":"Europe/Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
      // No error flag in Chat Completions: the text says it.
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: arguments were not valid JSON' },
      // Tool messages take only text; the tool's image follows as a user message.
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by tool get_weather:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pixel}` } },
        ],
      },
      // The empty failed assistant message is left out: the API rejects an empty assistant turn.
      { role: 'user', content: 'And now?' },
    ])
  })

  it('sends content null for an assistant turn that only called tools', async () => {
    wire.server.enqueue({ body: chat.text() })
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      {
        ...(history[1] as Extract<Message, { role: 'assistant' }>),
        content: [{ type: 'toolCall', id: 'call_x', name: 'get_weather', arguments: {} }],
      },
      {
        role: 'toolResult',
        toolCallId: 'call_x',
        toolName: 'get_weather',
        content: [{ type: 'text', text: 'ok' }],
        isError: false,
      },
    ]
    await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request({ messages })))
    expect((body(wire.server).messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    })
  })
})
