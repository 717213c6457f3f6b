import { Runtime, type Provider, type UsageCost } from '@nestor/core'
import { anthropic, gemini, modelInfo, openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { sse, startWireServer, type WireServer } from '../support/wire-server.js'
import { scenario } from '../support/anthropic-wire.js'
import {
  modelId,
  text as bedrockText,
  streamResponse,
  provider as bedrockProvider,
  useBedrockWire,
} from '../support/bedrock-wire.js'
import { serverPerTest } from '../support/server-per-test.js'

// Real SDKs against local servers that report usage in each provider's own shape. Each expected
// figure is worked out by hand from the catalogue's published rates (dollars per million tokens),
// which are checked first, so a dataset update that moves a rate says so instead of a wrong sum.

/** Hand arithmetic: tokens × rate / 1e6 per part. */
function hand(parts: {
  input: [number, number]
  output: [number, number]
  cacheRead?: [number, number]
  cacheWrite?: [number, number]
}): UsageCost {
  const part = (p?: [number, number]) => (p ? (p[0] * p[1]) / 1e6 : 0)
  const cost = {
    input: part(parts.input),
    output: part(parts.output),
    cacheRead: part(parts.cacheRead),
    cacheWrite: part(parts.cacheWrite),
  }
  return { ...cost, total: cost.input + cost.output + cost.cacheRead + cost.cacheWrite }
}

async function priced(provider: Provider, model: string) {
  const result = await new Runtime({ provider, model }).exec('hi')
  expect(result.status).toBe('completed')
  const message = result.messages.at(-1)
  if (message?.role !== 'assistant') throw new Error('no assistant message')
  return { message, result }
}

const closeTo = (cost: UsageCost) => ({
  input: expect.closeTo(cost.input, 12),
  output: expect.closeTo(cost.output, 12),
  cacheRead: expect.closeTo(cost.cacheRead, 12),
  cacheWrite: expect.closeTo(cost.cacheWrite, 12),
  total: expect.closeTo(cost.total, 12),
})

describe('a turn is priced from its provider-reported usage, cache tokens at cache rates', () => {
  const wire = serverPerTest(startWireServer)
  const server = (): WireServer => wire()

  it('openai chat: prompt_tokens_details.cached_tokens at the cached-input rate', async () => {
    expect((await modelInfo('openai', 'gpt-4o-mini')).prices).toMatchObject({
      input: 0.15,
      output: 0.6,
      cacheRead: 0.075,
    })
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1780000000, model: 'gpt-4o-mini-2024-07-18' }
    server().enqueue({
      body: sse([
        {
          data: { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] },
        },
        { data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } },
        {
          data: {
            ...base,
            choices: [],
            usage: {
              prompt_tokens: 1000,
              completion_tokens: 200,
              total_tokens: 1200,
              prompt_tokens_details: { cached_tokens: 600 },
            },
          },
        },
        '[DONE]',
      ]),
    })
    // Pointed at another server, openai() is priced by the name it is given (docs/cost.md).
    const provider = openai({ name: 'openai', apiKey: 'sk-test', baseURL: `${server().url}/v1`, maxRetries: 0 })
    const { message, result } = await priced(provider, 'gpt-4o-mini')
    const expected = hand({ input: [400, 0.15], output: [200, 0.6], cacheRead: [600, 0.075] })
    expect(message.usage.cost).toEqual(closeTo(expected))
    expect(result.usage.cost).toEqual(closeTo(expected))
    expect(result.totalUsage.cost).toEqual(closeTo(expected))
  })

  it('anthropic: cache_creation_input_tokens at the cache-write rate, cache_read_input_tokens at the read rate', async () => {
    expect((await modelInfo('anthropic', 'claude-sonnet-4-5')).prices).toMatchObject({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    })
    server().enqueue({ body: scenario('text.sse') })
    const provider = anthropic({ apiKey: 'sk-ant-test', baseURL: server().url, maxRetries: 0 })
    const { message } = await priced(provider, 'claude-sonnet-4-5')
    expect(message.usage).toMatchObject({ input: 25, output: 42, cacheRead: 100, cacheWrite: 50 })
    expect(message.usage.cost).toEqual(
      closeTo(hand({ input: [25, 3], output: [42, 15], cacheRead: [100, 0.3], cacheWrite: [50, 3.75] })),
    )
  })

  const geminiTurn = (prompt: number, cached: number, output: number) => {
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: prompt,
        cachedContentTokenCount: cached,
        candidatesTokenCount: output,
        totalTokenCount: prompt + output,
      },
    }
    server().enqueue({ body: `data: ${JSON.stringify(chunk)}\r\n\r\n` })
  }

  it('gemini: cachedContentTokenCount at the cached rate, the rest of the prompt at the input rate', async () => {
    expect((await modelInfo('gemini', 'gemini-2.5-flash')).prices).toMatchObject({
      input: 0.3,
      output: 2.5,
      cacheRead: 0.03,
    })
    geminiTurn(1000, 800, 3)
    const { message } = await priced(gemini({ apiKey: 'k', baseURL: server().url, maxRetries: 0 }), 'gemini-2.5-flash')
    expect(message.usage.cost).toEqual(closeTo(hand({ input: [200, 0.3], output: [3, 2.5], cacheRead: [800, 0.03] })))
  })

  it('gemini: a prompt over 200k tokens is billed wholly at the long-context rates', async () => {
    expect((await modelInfo('gemini', 'gemini-2.5-pro')).prices?.tiers).toEqual([
      { above: 200_000, input: 2.5, output: 15, cacheRead: 0.25 },
    ])
    geminiTurn(250_000, 50_000, 100)
    const { message } = await priced(gemini({ apiKey: 'k', baseURL: server().url, maxRetries: 0 }), 'gemini-2.5-pro')
    expect(message.usage.cost).toEqual(
      closeTo(hand({ input: [200_000, 2.5], output: [100, 15], cacheRead: [50_000, 0.25] })),
    )
  })
})

describe('bedrock: Converse metadata usage, cacheRead/cacheWriteInputTokens priced apart', () => {
  const wire = useBedrockWire()

  it('prices the turn at the catalogue rates of the model id', async () => {
    const rates = (await modelInfo('bedrock', modelId)).prices
    expect(rates).toMatchObject({ input: 3.3, output: 16.5, cacheRead: 0.33, cacheWrite: 4.125 })
    wire.server.enqueue(streamResponse(bedrockText('Hello')))
    const { message } = await priced(bedrockProvider(wire.server), modelId)
    expect(message.usage).toMatchObject({ input: 12, output: 5, cacheRead: 20, cacheWrite: 10 })
    expect(message.usage.cost).toEqual(
      closeTo(hand({ input: [12, 3.3], output: [5, 16.5], cacheRead: [20, 0.33], cacheWrite: [10, 4.125] })),
    )
  })
})
