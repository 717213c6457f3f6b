import type { AssistantMessage, Message } from '@nestor/core'
import { openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import * as responses from '../wire/openai/responses-scenarios.js'
import { body, collect, request, useWire, weatherTool } from '../../support/openai-wire.js'

describe('openai responses api', () => {
  const wire = useWire()

  it('turns reasoning, a function call and text into one message with call_id ids and the item id kept', async () => {
    wire.server.enqueue({ body: responses.reasoningCallAndText() })
    const provider = openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses' })
    const { events, final, last } = await collect(provider.stream(request({ model: 'gpt-5-mini' })))
    expect(last.type).toBe('done')
    expect(wire.server.requests[0]?.url).toBe('/v1/responses')
    expect(events.filter((e) => e.type === 'thinking_delta').length).toBe(2)
    expect(final.content).toEqual([
      { type: 'thinking', thinking: 'Need the weather first.' },
      {
        type: 'toolCall',
        id: 'call_nestor_1',
        name: 'get_weather',
        arguments: { city: 'Paris' },
        providerData: { itemId: 'fc_nestor_1' },
      },
      { type: 'text', text: 'Checking.' },
    ])
    expect(final.stopReason).toBe('toolUse')
    expect(final.providerData).toEqual({
      openaiResponses: { responseId: 'resp_nestor_1', reasoning: [{ position: 0, item: responses.reasoningItem }] },
    })
    expect(final.usage).toEqual({ input: 200, output: 50, cacheRead: 100, cacheWrite: 0, total: 350 })
  })

  it('replays reasoning items in order before function_call items and answers with function_call_output', async () => {
    wire.server.enqueue({ body: responses.reasoningCallAndText() }, { body: responses.textAnswer() })
    const provider = openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses' })
    const first = await collect(
      provider.stream(
        request({ model: 'gpt-5-mini', system: 'Be brief.', toolChoice: 'required', parallelToolCalls: false }),
      ),
    )
    const history: Message[] = [
      { role: 'user', content: 'What is the weather in Paris?' },
      first.final,
      {
        role: 'toolResult',
        toolCallId: 'call_nestor_1',
        toolName: 'get_weather',
        content: [{ type: 'text', text: 'sunny' }],
        isError: false,
      },
    ]
    const second = await collect(
      provider.stream(
        request({
          model: 'gpt-5-mini',
          system: 'Be brief.',
          messages: history,
          toolChoice: { type: 'function', name: 'get_weather' },
        }),
      ),
    )
    expect(second.final.content).toEqual([{ type: 'text', text: 'It is sunny in Paris.' }])
    expect(second.final.stopReason).toBe('stop')

    expect(body(wire.server, 0)).toMatchObject({
      model: 'gpt-5-mini',
      instructions: 'Be brief.',
      stream: true,
      tool_choice: 'required',
      parallel_tool_calls: false,
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: weatherTool.description,
          parameters: weatherTool.parameters,
          strict: false,
        },
      ],
      input: [{ role: 'user', content: 'What is the weather in Paris?' }],
    })
    const replay = body(wire.server, 1)
    expect(replay.tool_choice).toEqual({ type: 'function', name: 'get_weather' })
    expect(replay.input).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      responses.reasoningItem,
      {
        type: 'function_call',
        call_id: 'call_nestor_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        id: 'fc_nestor_1',
      },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call_output', call_id: 'call_nestor_1', output: 'sunny' },
    ])
  })

  it('does not replay reasoning or item ids to a provider that did not produce them', async () => {
    wire.server.enqueue({ body: responses.reasoningCallAndText() }, { body: responses.textAnswer() })
    const first = await collect(
      openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses', name: 'other' }).stream(request()),
    )
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      first.final,
      {
        role: 'toolResult',
        toolCallId: 'call_nestor_1',
        toolName: 'get_weather',
        content: [{ type: 'text', text: 'boom' }],
        isError: true,
      },
    ]
    await collect(
      openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses' }).stream(request({ messages: history })),
    )
    expect(body(wire.server, 1).input).toEqual([
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'call_nestor_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call_output', call_id: 'call_nestor_1', output: 'Error: boom' },
    ])
  })

  it('maps max tokens and reasoning effort, and an incomplete response to stopReason length', async () => {
    wire.server.enqueue({ body: responses.incomplete() })
    const { final } = await collect(
      openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses' }).stream(
        request({ tools: [], options: { maxTokens: 3, reasoningEffort: 'low', temperature: 1 } }),
      ),
    )
    expect(final.stopReason).toBe('length')
    expect(final.content).toEqual([{ type: 'text', text: 'Once upon' }])
    const sent = body(wire.server)
    expect(sent).toMatchObject({
      max_output_tokens: 3,
      temperature: 1,
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
    })
    expect(sent).not.toHaveProperty('tools')
    expect(sent).not.toHaveProperty('parallel_tool_calls')
  })

  it('ends an in-stream error event as a non-retryable error result', async () => {
    wire.server.enqueue({ body: responses.inStreamError() })
    const { events, last, final } = await collect(
      openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses' }).stream(request()),
    )
    expect(events.some((e) => e.type === 'retry')).toBe(false)
    expect(last.type).toBe('error')
    if (last.type !== 'error') return
    expect(last.error).toMatchObject({ code: 'provider_error', retryable: false, provider: 'openai' })
    expect(last.error.message).toContain('You exceeded your current quota.')
    expect((final as AssistantMessage).stopReason).toBe('error')
    expect(wire.server.requests).toHaveLength(1)
  })
})
