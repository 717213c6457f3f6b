import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import type { Message } from '@nestor/core'
import type { ModelEvent, ModelRequest } from '@nestor/core/integration-kit'
import { aiSdk } from '@nestor/providers'
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
  inputTokens: { total: input + cacheRead + cacheWrite, noCache: input, cacheRead, cacheWrite },
  outputTokens: { total: output, text: output, reasoning: undefined },
})
const finish = (unified: 'stop' | 'length' | 'tool-calls' | 'error', u = usage(10, 5)): LanguageModelV3StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage: u,
})
const mock = (...streams: LanguageModelV3StreamPart[][]) =>
  new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'mock-1',
    doStream: streams.map((chunks) => ({ stream: simulateReadableStream({ chunks }) })),
  })
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'ignored',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  ...over,
})

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}
const last = (events: ModelEvent[]) => events.at(-1) as Extract<ModelEvent, { type: 'done' | 'error' }>

describe('aiSdk(model): edge cases through the AI SDK mock model', () => {
  it('keeps provider-executed calls and results as data, never as Nestor tool calls', async () => {
    const model = mock([
      { type: 'stream-start', warnings: [] },
      { type: 'tool-input-start', id: 'ws_1', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', id: 'ws_1', delta: '{"q":"x"}' },
      { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: '{"q":"x"}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: 3 } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Found 3.' },
      { type: 'text-end', id: 't' },
      finish('stop'),
    ])
    const events = await collect(aiSdk(model).stream(request()))
    expect(events.some((e) => e.type.startsWith('toolcall'))).toBe(false)
    expect(last(events).message).toMatchObject({
      stopReason: 'stop',
      content: [{ type: 'text', text: 'Found 3.' }],
      providerData: {
        aiSdk: {
          providerExecuted: [
            { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: '{"q":"x"}' },
            { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: 3 } },
          ],
        },
      },
    })
  })

  it('maps usage with cache reads and writes, and length to length', async () => {
    const events = await collect(
      aiSdk(mock([{ type: 'text-delta', id: 't', delta: 'Once' }, finish('length', usage(7, 1, 100, 20))])).stream(
        request(),
      ),
    )
    expect(last(events).message).toMatchObject({
      stopReason: 'length',
      usage: { input: 7, output: 1, cacheRead: 100, cacheWrite: 20, total: 128 },
    })
  })

  it('a tool call that arrives whole (no input deltas) is streamed as start, delta, end', async () => {
    const events = await collect(
      aiSdk(
        mock([
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
          finish('tool-calls'),
        ]),
      ).stream(request()),
    )
    expect(events.map((e) => e.type)).toEqual(['start', 'toolcall_start', 'toolcall_delta', 'toolcall_end', 'done'])
    expect(last(events).message.content).toEqual([
      { type: 'toolCall', id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } },
    ])
  })

  it('an error part before content is retried like any retryable failure', async () => {
    const overloaded = Object.assign(new Error('overloaded'), {
      statusCode: 529,
      isRetryable: true,
      responseHeaders: { 'retry-after-ms': '1' },
    })
    const model = mock(
      [{ type: 'error', error: overloaded }],
      [{ type: 'text-delta', id: 't', delta: 'ok' }, finish('stop')],
    )
    const events = await collect(aiSdk(model).stream(request()))
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      expect.objectContaining({ delayMs: 1, error: expect.objectContaining({ status: 529, retryable: true }) }),
    ])
    expect(last(events).type).toBe('done')
  })

  it('abort stops a model that ignores its abortSignal, keeping the partial text', async () => {
    let pull: ReadableStreamDefaultController<LanguageModelV3StreamPart> | undefined
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start: (c) => {
            pull = c
            c.enqueue({ type: 'text-delta', id: 't', delta: 'Half' })
          },
        }),
      }),
    })
    const controller = new AbortController()
    const events: ModelEvent[] = []
    const done = (async () => {
      for await (const event of aiSdk(model).stream(request(), controller.signal)) {
        events.push(event)
        if (event.type === 'text_delta') controller.abort()
      }
    })()
    await done
    expect(pull).toBeDefined()
    expect(last(events)).toMatchObject({
      type: 'error',
      message: { stopReason: 'aborted', content: [{ type: 'text', text: 'Half' }] },
      error: { code: 'aborted' },
    })
  })

  it('sends tools, the tool choice, options and history (tool results merged, reasoning metadata replayed)', async () => {
    const model = mock(
      [
        { type: 'reasoning-start', id: 'r', providerMetadata: { anthropic: { signature: 'sig-1' } } },
        { type: 'reasoning-delta', id: 'r', delta: 'Think.' },
        { type: 'reasoning-end', id: 'r' },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'get_weather',
          input: '{"city":"Oslo"}',
          providerMetadata: { google: { thoughtSignature: 'ts-1' } },
        },
        finish('tool-calls'),
      ],
      [{ type: 'text-delta', id: 't', delta: 'Cold.' }, finish('stop')],
    )
    const provider = aiSdk(model)
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ]
    const first = last(
      await collect(
        provider.stream(
          request({
            tools,
            toolChoice: { type: 'function', name: 'get_weather' },
            options: { maxTokens: 64, temperature: 0 },
          }),
        ),
      ),
    )
    expect(model.doStreamCalls[0]).toMatchObject({
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather', inputSchema: tools[0]?.parameters }],
      toolChoice: { type: 'tool', toolName: 'get_weather' },
      maxOutputTokens: 64,
      temperature: 0,
    })
    const history: Message[] = [
      { role: 'user', content: 'Weather in Oslo?' },
      first.message,
      {
        role: 'toolResult',
        toolCallId: 'c1',
        toolName: 'get_weather',
        content: [{ type: 'text', text: 'cold' }],
        isError: false,
      },
    ]
    await collect(provider.stream(request({ system: 'Be brief.', messages: history, tools, toolChoice: 'none' })))
    expect(model.doStreamCalls[1]?.toolChoice).toEqual({ type: 'none' })
    expect(model.doStreamCalls[1]?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Think.', providerOptions: { anthropic: { signature: 'sig-1' } } },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'get_weather',
            input: { city: 'Oslo' },
            providerOptions: { google: { thoughtSignature: 'ts-1' } },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: 'cold' } },
        ],
      },
    ])
  })
})
