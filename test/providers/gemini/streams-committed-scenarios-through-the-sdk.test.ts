import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssistantMessage, ToolCall } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { gemini } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import {
  STREAM_PATH,
  assistantText,
  collect,
  final,
  request,
  scenario,
  timeTool,
  weatherTool,
  type Body,
} from '../../support/gemini-wire.js'

describe('Gemini streams our committed SSE scenarios through @google/generative-ai', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  const run = async (file: string, overrides: Parameters<typeof request>[0] = {}) => {
    server.enqueue({ headers: { 'content-type': 'text/event-stream' }, body: scenario(file) })
    const provider = gemini({ apiKey: 'test-key', baseURL: server.url })
    const events = await collect(provider.stream(request(overrides)))
    const captured = server.requests.at(-1)!
    return { events, message: final(events).message, captured, body: captured.json as Body }
  }

  it('assembles text sent over three chunks, with the last cumulative usage', async () => {
    const { events, message, captured } = await run('text.three-chunks.sse', { system: 'Be brief.' })
    expect(captured.url).toBe(STREAM_PATH('gemini-2.5-flash'))
    expect(captured.method).toBe('POST')
    expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'text_delta', 'text_delta', 'done'])
    expect(assistantText(events)).toBe('The capital of France is Paris — ünïcödé ✓.')
    expect(message.stopReason).toBe('stop')
    expect(message.provider).toBe('gemini')
    expect(message.model).toBe('gemini-2.5-flash')
    expect(message.usage).toEqual({ input: 12, output: 9, cacheRead: 0, cacheWrite: 0, total: 21 })
  })

  it('sends the system prompt as systemInstruction and the user turn as contents', async () => {
    const { body } = await run('text.three-chunks.sse', { system: 'Be brief.' })
    expect(body.systemInstruction?.parts).toEqual([{ text: 'Be brief.' }])
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hello' }] }])
  })

  it('streams one functionCall as one complete call, keeping its thoughtSignature', async () => {
    const { events, message, body } = await run('function-call.single.sse', {
      tools: [weatherTool],
      toolChoice: 'auto',
    })
    expect(events.map((e) => e.type)).toEqual(['start', 'toolcall_start', 'toolcall_delta', 'toolcall_end', 'done'])
    const delta = events.find((e) => e.type === 'toolcall_delta') as Extract<ModelEvent, { type: 'toolcall_delta' }>
    expect(JSON.parse(delta.delta)).toEqual({ city: 'Paris', unit: 'celsius' })
    expect(message.stopReason).toBe('toolUse')
    const call = message.content[0] as ToolCall
    expect(call).toMatchObject({ type: 'toolCall', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } })
    expect(call.id).toMatch(/\S+/)
    expect(call.providerData).toEqual({ thoughtSignature: 'SIG-single-Zm9vYmFy+/=' })
    // Thoughts count as output: 8 candidates + 20 thoughts.
    expect(message.usage).toEqual({ input: 40, output: 28, cacheRead: 0, cacheWrite: 0, total: 68 })
    // The declaration went out converted: no $schema, no additionalProperties.
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather for a city',
            parameters: {
              type: 'object',
              properties: {
                city: { type: 'string', description: 'City name' },
                unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
              },
              required: ['city'],
            },
          },
        ],
      },
    ])
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } })
  })

  it('keeps three parallel calls of one chunk distinct, the signature only on the first', async () => {
    const { events, message } = await run('function-call.parallel-one-chunk.sse', { tools: [weatherTool, timeTool] })
    const calls = message.content.filter((c): c is ToolCall => c.type === 'toolCall')
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: 'Tokyo' }],
      ['get_time', { zone: 'Asia/Tokyo' }],
    ])
    expect(new Set(calls.map((c) => c.id)).size).toBe(3)
    expect(calls[0]!.providerData).toEqual({ thoughtSignature: 'SIG-parallel-first-QUJD' })
    expect(calls[1]!.providerData).toBeUndefined()
    expect(calls[2]!.providerData).toBeUndefined()
    expect(events.filter((e) => e.type === 'toolcall_end')).toHaveLength(3)
    expect(message.stopReason).toBe('toolUse')
    // promptTokenCount 83 includes 50 cached tokens.
    expect(message.usage).toEqual({ input: 33, output: 94, cacheRead: 50, cacheWrite: 0, total: 177 })
  })

  it('streams thought summaries as thinking, not text, and keeps the text signature', async () => {
    const { events, message } = await run('thinking.summary-then-text.sse', { model: 'gemini-2.5-pro' })
    expect(events.filter((e) => e.type === 'thinking_delta')).toHaveLength(2)
    expect(assistantText(events)).toBe('The answer is 4.')
    expect(message.content.map((c) => c.type)).toEqual(['thinking', 'text', 'text'])
    expect(message.content[0]).toEqual({
      type: 'thinking',
      thinking: '**Planning**\n\nI will answer briefly.**Checking**\n\nTwo plus two.',
    })
    // The signed text part stays its own block, so replay puts the signature back on it.
    expect(message.content[1]).toEqual({ type: 'text', text: 'The answer ' })
    expect(message.providerData).toEqual({ geminiTextSignatures: { '1': 'SIG-text-RGVm' } })
    expect(message.stopReason).toBe('stop')
    expect(message.usage.output).toBe(76)
  })

  it('reports MAX_TOKENS as stopReason length with the text so far', async () => {
    const { message, events } = await run('text.max-tokens.sse')
    expect(events.at(-1)!.type).toBe('done')
    expect(message.stopReason).toBe('length')
    expect(assistantText(events)).toBe('Once upon a time there was a')
  })

  it('turns a SAFETY finish into an error result with a clear message, keeping the partial text', async () => {
    const { events, message } = await run('finish-reason.safety.sse')
    const end = final(events)
    expect(end.type).toBe('error')
    expect(message.stopReason).toBe('error')
    expect(message.errorMessage).toMatch(/finishReason SAFETY/)
    expect(end.type === 'error' && end.error).toMatchObject({
      code: 'provider_error',
      retryable: false,
      provider: 'gemini',
    })
    expect(assistantText(events)).toBe('I can start to')
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(0)
  })

  it('names the provider as configured', async () => {
    server.enqueue({ body: scenario('text.three-chunks.sse') })
    const events = await collect(
      gemini({ apiKey: 'k-123456', baseURL: server.url, name: 'vertex-ish' }).stream(request()),
    )
    expect((final(events).message as AssistantMessage).provider).toBe('vertex-ish')
  })
})
