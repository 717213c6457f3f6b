import { Runtime, defineTool } from '@nestor/core'
import { openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import * as chat from '../wire/openai/chat-scenarios.js'
import * as responses from '../wire/openai/responses-scenarios.js'
import { body, timeTool, useWire, weatherTool } from '../../support/openai-wire.js'

const weather = defineTool({
  name: weatherTool.name,
  description: weatherTool.description,
  parameters: weatherTool.parameters,
  execute: async (args) => `sunny in ${String((args as { city: string }).city)}`,
})
const time = defineTool({
  name: timeTool.name,
  description: timeTool.description,
  parameters: timeTool.parameters,
  execute: async () => '14:00',
})

describe('Runtime over the openai provider and the wire', () => {
  const wire = useWire()

  it('executes two parallel chat tool calls, sends the results back and returns the answer', async () => {
    wire.server.enqueue({ body: chat.parallelToolCalls() }, { body: chat.text(['Sunny', ', 14:00.']) })
    const runtime = new Runtime({
      provider: openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }),
      model: 'gpt-4o-mini',
    })
    const run = runtime.exec('Weather and time in London?', { tools: [weather, time] })
    const types: string[] = []
    for await (const event of run) types.push(event.type)
    const result = await run
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Sunny, 14:00.')
    expect(result.iterationsUsed).toBe(2)
    expect(result.history.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant'])
    expect(result.history[2]).toMatchObject({
      role: 'toolResult',
      toolCallId: 'call_a',
      toolName: 'get_weather',
      isError: false,
      content: [{ type: 'text', text: 'sunny in London' }],
    })
    expect(result.history[3]).toMatchObject({
      role: 'toolResult',
      toolCallId: 'call_b',
      toolName: 'get_time',
      content: [{ type: 'text', text: '14:00' }],
    })
    expect(types.filter((t) => t === 'tool_end')).toHaveLength(2)

    const second = body(wire.server, 1).messages as unknown[]
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

  it('replays the reasoning item and the call on the Responses API', async () => {
    wire.server.enqueue({ body: responses.reasoningCallAndText() }, { body: responses.textAnswer() })
    const runtime = new Runtime({
      provider: openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses' }),
      model: 'gpt-5-mini',
    })
    const result = await runtime.exec('Weather in Paris?', { tools: [weather] })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('It is sunny in Paris.')
    expect(body(wire.server, 1).input).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      responses.reasoningItem,
      {
        type: 'function_call',
        call_id: 'call_nestor_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        id: 'fc_nestor_1',
      },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call_output', call_id: 'call_nestor_1', output: 'sunny in Paris' },
    ])
  })
})
