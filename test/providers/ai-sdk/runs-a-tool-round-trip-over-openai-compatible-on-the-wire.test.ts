import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { Runtime, defineTool } from '@nestor/core'
import { aiSdk } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { body, timeTool, useWire, weatherTool } from '../../support/openai-wire.js'
import * as chat from '../wire/openai/chat-scenarios.js'

const weather = defineTool({
  ...weatherTool,
  execute: async (args) => `sunny in ${String((args as { city: string }).city)}`,
})
const time = defineTool({ ...timeTool, execute: async () => '14:00' })

describe('aiSdk(model): @ai-sdk/openai-compatible against the loopback OpenAI wire', () => {
  const wire = useWire()
  const model = () =>
    createOpenAICompatible({
      name: 'local',
      baseURL: wire.baseURL,
      apiKey: 'sk-compat-secret',
      includeUsage: true,
    }).chatModel('gpt-4o-mini')

  it('streams two parallel calls, runs them, sends the results back in OpenAI shape and returns the answer', async () => {
    wire.server.enqueue({ body: chat.parallelToolCalls() }, { body: chat.text(['Sunny', ', 14:00.']) })
    const runtime = new Runtime({ provider: aiSdk(model(), { secrets: ['sk-compat-secret'] }), model: 'ignored' })
    const result = await runtime.exec('Weather and time in London?', { tools: [weather, time], toolChoice: 'required' })

    expect(result.status).toBe('completed')
    expect(result.text).toBe('Sunny, 14:00.')
    expect(result.history.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant'])
    expect(result.history[1]).toMatchObject({
      provider: 'local.chat',
      model: 'gpt-4o-mini',
      stopReason: 'toolUse',
      content: [
        { type: 'toolCall', id: 'call_a', name: 'get_weather', arguments: { city: 'London' } },
        { type: 'toolCall', id: 'call_b', name: 'get_time', arguments: { zone: 'Europe/London', h24: true } },
      ],
      usage: { input: 120, output: 40 },
    })

    const first = body(wire.server, 0)
    expect(first).toMatchObject({ model: 'gpt-4o-mini', stream: true, tool_choice: 'required' })
    expect(first.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.parameters },
      },
      {
        type: 'function',
        function: { name: 'get_time', description: timeTool.description, parameters: timeTool.parameters },
      },
    ])
    const second = body(wire.server, 1).messages as Record<string, unknown>[]
    expect(second.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } },
          {
            id: 'call_b',
            type: 'function',
            function: { name: 'get_time', arguments: '{"zone":"Europe/London","h24":true}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'sunny in London' },
      { role: 'tool', tool_call_id: 'call_b', content: '14:00' },
    ])
  })

  it('retries a 503 through Nestor (one retry event) and keeps the key out of the error', async () => {
    wire.server.enqueue(
      {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after-ms': '1' },
        body: chat.errorBody('overloaded sk-compat-secret', 'server_error', null),
      },
      { body: chat.text(['ok']) },
    )
    const events = []
    for await (const event of aiSdk(model(), { secrets: ['sk-compat-secret'] }).stream({
      model: 'x',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
    }))
      events.push(event)
    const retries = events.filter((e) => e.type === 'retry')
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({ delayMs: 1, error: { status: 503, retryable: true, provider: 'local.chat' } })
    expect(JSON.stringify(events)).not.toContain('sk-compat-secret')
    expect(events.at(-1)).toMatchObject({ type: 'done', message: { content: [{ type: 'text', text: 'ok' }] } })
  })
})
