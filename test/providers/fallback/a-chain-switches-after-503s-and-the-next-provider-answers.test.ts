import { Runtime, defineTool } from '@nestor/core'
import { anthropic, fallback, openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import * as chat from '../wire/openai/chat-scenarios.js'
import { anthropicScenario, unavailable, useTwoWires } from '../../support/fallback-wires.js'

const weather = defineTool({
  name: 'get_weather',
  description: 'Forecast for a place',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string' }, days: { type: 'integer' }, units: { type: 'array' } },
    required: ['location'],
  },
  execute: async () => 'sunny',
})

describe('fallback: a chain moves on when a provider keeps failing before content', () => {
  const wire = useTwoWires()

  it('openai answers 503 three times, anthropic answers: one retry event names the switch and the transcript is valid', async () => {
    wire.first.enqueue(unavailable, unavailable, unavailable, { body: chat.text(['Sunny', ' in Zürich.']) })
    wire.second.enqueue({ body: anthropicScenario('text-then-tool.sse') })
    const chain = fallback([
      { provider: openai({ baseURL: `${wire.first.url}/v1`, apiKey: 'sk-first' }), model: 'gpt-4o-mini' },
      { provider: anthropic({ baseURL: wire.second.url, apiKey: 'sk-ant-second' }), model: 'claude-sonnet-4-6' },
    ])
    const runtime = new Runtime({ provider: chain, model: 'unused-by-the-chain' })
    const run = runtime.exec('Weather in Zürich?', { tools: [weather] })
    const retries = []
    for await (const event of run) if (event.type === 'retry') retries.push(event)
    const result = await run

    expect(result.status).toBe('completed')
    const switches = retries.filter((r) => r.error.message.includes('switching to'))
    expect(switches).toHaveLength(1)
    expect(switches[0]?.error.message).toMatch(/^openai failed \(.*\); switching to anthropic$/)
    expect(switches[0]?.error).toMatchObject({ code: 'provider_error', status: 503, provider: 'openai' })
    // openai's own two retries come first, then the switch.
    expect(retries).toHaveLength(3)
    expect(wire.first.requests).toHaveLength(4)
    expect(wire.second.requests).toHaveLength(1)

    expect(result.history.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant'])
    const [, call, toolResult, answer] = result.history
    expect(call).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-6', stopReason: 'toolUse' })
    expect(toolResult).toMatchObject({ toolCallId: 'toolu_nestor_weather_01', isError: false })
    expect(answer).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', stopReason: 'stop' })
    expect(result.text).toBe('Sunny in Zürich.')

    // The second turn went back to openai, with anthropic's call replayed in OpenAI's own shape.
    const sent = wire.first.requests[3]?.json as { model: string; messages: Record<string, unknown>[] }
    expect(sent.model).toBe('gpt-4o-mini')
    expect(sent.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'toolu_nestor_weather_01', type: 'function', function: { name: 'get_weather' } }],
    })
    expect(sent.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'toolu_nestor_weather_01', content: 'sunny' })
  })
})
