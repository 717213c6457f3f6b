import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '@nestor/core'
import { gemini } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import {
  collect,
  final,
  geminiSse,
  request,
  scenario,
  timeTool,
  weatherTool,
  type Body,
} from '../../support/gemini-wire.js'

const result = (call: ToolCall, text: string, isError = false): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: call.id,
  toolName: call.name,
  content: [{ type: 'text', text }],
  isError,
})

describe('Gemini thought signatures survive a round trip on the wire', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  const turn = async (messages: Message[], body: string) => {
    server.enqueue({ body })
    const provider = gemini({ apiKey: 'test-key', baseURL: server.url })
    const events = await collect(
      provider.stream(request({ model: 'gemini-3-pro-preview', messages, tools: [weatherTool, timeTool] })),
    )
    return { message: final(events).message, body: server.requests.at(-1)!.json as Body }
  }

  it('replays the exact signature string on the functionCall part it came on', async () => {
    const signature = 'X'
    const first = geminiSse([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: signature }],
            },
            finishReason: 'STOP',
          },
        ],
      },
    ])
    const history: Message[] = [{ role: 'user', content: 'Weather in Oslo?' }]
    const one = await turn(history, first)
    const call = one.message.content[0] as ToolCall
    history.push(one.message, result(call, '4°C and snowing'))

    const two = await turn(history, scenario('text.after-function-response.sse'))
    expect(two.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' }, id: call.id }, thoughtSignature: 'X' }],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', id: call.id, response: { result: '4°C and snowing' } } }],
      },
    ])
    expect(two.message.stopReason).toBe('stop')
  })

  it('replays three parallel calls with the signature only on the first, and all responses in one turn', async () => {
    const history: Message[] = [{ role: 'user', content: 'Paris and Tokyo?' }]
    const one = await turn(history, scenario('function-call.parallel-one-chunk.sse'))
    const calls = one.message.content.filter((c): c is ToolCall => c.type === 'toolCall')
    history.push(
      one.message,
      result(calls[0]!, '18°C'),
      result(calls[1]!, '25°C'),
      result(calls[2]!, 'unknown zone', true),
    )

    const two = await turn(history, scenario('text.after-function-response.sse'))
    const [, model, responses] = two.body.contents
    expect(model).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: calls[0]!.id },
          thoughtSignature: 'SIG-parallel-first-QUJD',
        },
        { functionCall: { name: 'get_weather', args: { city: 'Tokyo' }, id: calls[1]!.id } },
        { functionCall: { name: 'get_time', args: { zone: 'Asia/Tokyo' }, id: calls[2]!.id } },
      ],
    })
    expect(responses).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', id: calls[0]!.id, response: { result: '18°C' } } },
        { functionResponse: { name: 'get_weather', id: calls[1]!.id, response: { result: '25°C' } } },
        { functionResponse: { name: 'get_time', id: calls[2]!.id, response: { error: 'unknown zone' } } },
      ],
    })
    expect(two.body.contents).toHaveLength(3)
  })

  it('replays a text-part signature on its own text part and drops unsigned thought summaries', async () => {
    const history: Message[] = [{ role: 'user', content: '2+2?' }]
    const one = await turn(history, scenario('thinking.summary-then-text.sse'))
    history.push(one.message, { role: 'user', content: 'Thanks' })
    const two = await turn(history, scenario('text.after-function-response.sse'))
    expect(two.body.contents[1]).toEqual({
      role: 'model',
      parts: [{ text: 'The answer ', thoughtSignature: 'SIG-text-RGVm' }, { text: 'is 4.' }],
    })
  })

  it('replays a signed thought part as a thought with its signature', async () => {
    const body = geminiSse([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ text: 'Thinking…', thought: true, thoughtSignature: 'T-SIG' }, { text: 'Done.' }],
            },
            finishReason: 'STOP',
          },
        ],
      },
    ])
    const history: Message[] = [{ role: 'user', content: 'Go' }]
    const one = await turn(history, body)
    expect(one.message.content[0]).toEqual({ type: 'thinking', thinking: 'Thinking…', signature: 'T-SIG' })
    history.push(one.message, { role: 'user', content: 'Again' })
    const two = await turn(history, scenario('text.after-function-response.sse'))
    expect(two.body.contents[1]!.parts).toEqual([
      { text: 'Thinking…', thought: true, thoughtSignature: 'T-SIG' },
      { text: 'Done.' },
    ])
  })

  it('does not replay another provider’s thinking signature', async () => {
    const foreign: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'anthropic-sig' },
        { type: 'text', text: 'Hi' },
      ],
      stopReason: 'stop',
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      provider: 'anthropic',
      model: 'claude',
    }
    const two = await turn(
      [{ role: 'user', content: 'a' }, foreign, { role: 'user', content: 'b' }],
      scenario('text.after-function-response.sse'),
    )
    expect(two.body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'Hi' }] })
  })

  it('sends user images as inlineData and tool-result images after the responses', async () => {
    const call: ToolCall = { type: 'toolCall', id: 'call-1', name: 'get_weather', arguments: { city: 'Rome' } }
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        ],
      },
      {
        role: 'assistant',
        content: [call],
        stopReason: 'toolUse',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        provider: 'gemini',
        model: 'm',
      },
      {
        role: 'toolResult',
        toolCallId: 'call-1',
        toolName: 'get_weather',
        content: [
          { type: 'text', text: 'map' },
          { type: 'image', data: 'bWFw', mimeType: 'image/jpeg' },
        ],
        isError: false,
      },
    ]
    const two = await turn(messages, scenario('text.after-function-response.sse'))
    expect(two.body.contents[0]!.parts).toEqual([
      { text: 'Look' },
      { inlineData: { mimeType: 'image/png', data: 'aGVsbG8=' } },
    ])
    expect(two.body.contents[1]!.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'Rome' }, id: 'call-1' } },
    ])
    expect(two.body.contents[2]!.parts).toEqual([
      { functionResponse: { name: 'get_weather', id: 'call-1', response: { result: 'map' } } },
      { inlineData: { mimeType: 'image/jpeg', data: 'bWFw' } },
    ])
  })
})
