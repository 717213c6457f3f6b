import { openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import * as chat from '../wire/openai/chat-scenarios.js'
import { body, collect, request, timeTool, useWire, weatherTool } from '../../support/openai-wire.js'

describe('openai chat: the SDK over the wire produces Nestor events', () => {
  const wire = useWire()

  it('assembles one tool call from fragmented arguments, with id, name, usage and toolUse', async () => {
    wire.server.enqueue({ body: chat.singleToolCall() })
    const { events, final, last } = await collect(
      openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request()),
    )
    expect(last.type).toBe('done')
    expect(events[0]?.type).toBe('start')
    expect(events.filter((e) => e.type === 'toolcall_start')).toEqual([
      { type: 'toolcall_start', id: 'call_weather_1', name: 'get_weather' },
    ])
    expect(
      events
        .filter((e) => e.type === 'toolcall_delta')
        .map((e) => (e.type === 'toolcall_delta' ? e.delta : ''))
        .join(''),
    ).toBe('{"city":"Paris","unit":"c"}')
    expect(final.content).toEqual([
      { type: 'toolCall', id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris', unit: 'c' } },
    ])
    expect(final.stopReason).toBe('toolUse')
    expect(final.provider).toBe('openai')
    expect(final.model).toBe('gpt-4o-mini')
    // 80 prompt tokens of which 64 cached: 16 uncached input + 64 cache reads.
    expect(final.usage).toEqual({ input: 16, output: 20, cacheRead: 64, cacheWrite: 0, total: 100 })
  })

  it('keeps two parallel calls apart by index even when fragments split inside tokens', async () => {
    wire.server.enqueue({ body: chat.parallelToolCalls(), chunkSize: 5 })
    const { final } = await collect(
      openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request({ tools: [weatherTool, timeTool] })),
    )
    expect(final.content).toEqual([
      { type: 'toolCall', id: 'call_a', name: 'get_weather', arguments: { city: 'London' } },
      { type: 'toolCall', id: 'call_b', name: 'get_time', arguments: { zone: 'Europe/London', h24: true } },
    ])
    expect(final.stopReason).toBe('toolUse')
    expect(final.usage.total).toBe(160)
  })

  it('streams text deltas into one text block and stops with stop', async () => {
    wire.server.enqueue({ body: chat.text() })
    const { events, final } = await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request()))
    expect(events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.delta : ''))).toEqual([
      'The',
      ' weather',
      ' in Paris',
      ' is sunny',
      '.',
    ])
    expect(final.content).toEqual([{ type: 'text', text: 'The weather in Paris is sunny.' }])
    expect(final.stopReason).toBe('stop')
    expect(final.usage).toEqual({ input: 200, output: 12, cacheRead: 0, cacheWrite: 0, total: 212 })
  })

  it('maps finish_reason length to stopReason length', async () => {
    wire.server.enqueue({ body: chat.finishLength() })
    const { final } = await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request()))
    expect(final.stopReason).toBe('length')
    expect(final.content).toEqual([{ type: 'text', text: 'Once' }])
  })

  it('does not announce a tool call cut off by the length limit as complete', async () => {
    wire.server.enqueue({ body: chat.toolCallCutByLength() })
    const { events, final } = await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request()))
    expect(events.some((e) => e.type === 'toolcall_end')).toBe(false)
    expect(final.stopReason).toBe('length')
    expect(final.content[0]).toMatchObject({ type: 'toolCall', id: 'call_cut', invalidArguments: '{"city":"Par' })
  })

  it('sends stream_options.include_usage, function tools and no tool fields when there are no tools', async () => {
    wire.server.enqueue({ body: chat.text() }, { body: chat.text() })
    const provider = openai({ baseURL: wire.baseURL, apiKey: 'sk-test' })
    await collect(
      provider.stream(
        request({ system: 'Be brief.', options: { maxTokens: 50, temperature: 0.2, reasoningEffort: 'low' } }),
      ),
    )
    await collect(provider.stream(request({ tools: [], toolChoice: 'required', parallelToolCalls: false })))
    const first = body(wire.server, 0)
    expect(wire.server.requests[0]?.url).toBe('/v1/chat/completions')
    expect(wire.server.requests[0]?.headers.authorization).toBe('Bearer sk-test')
    expect(first).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 50,
      temperature: 0.2,
      reasoning_effort: 'low',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is the weather in Paris?' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather for a city',
            parameters: weatherTool.parameters,
          },
        },
      ],
    })
    expect(first).not.toHaveProperty('tool_choice')
    expect(first).not.toHaveProperty('parallel_tool_calls')
    expect((first.tools as { function: object }[])[0]?.function).not.toHaveProperty('strict')
    const second = body(wire.server, 1)
    expect(second).not.toHaveProperty('tools')
    expect(second).not.toHaveProperty('tool_choice')
    expect(second).not.toHaveProperty('parallel_tool_calls')
  })

  it('sends tool_choice and parallel_tool_calls as the caller asked', async () => {
    wire.server.enqueue({ body: chat.text() }, { body: chat.text() })
    const provider = openai({ baseURL: wire.baseURL, apiKey: 'sk-test' })
    await collect(
      provider.stream(request({ toolChoice: { type: 'function', name: 'get_weather' }, parallelToolCalls: false })),
    )
    await collect(provider.stream(request({ toolChoice: 'required' })))
    expect(body(wire.server, 0)).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    })
    expect(body(wire.server, 1)).toMatchObject({ tool_choice: 'required' })
    expect(body(wire.server, 1)).not.toHaveProperty('parallel_tool_calls')
  })
})
