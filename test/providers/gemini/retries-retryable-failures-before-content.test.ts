import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { gemini } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { assistantText, collect, final, googleError, request, retryInfo, scenario } from '../../support/gemini-wire.js'

type Retry = Extract<ModelEvent, { type: 'retry' }>
const retries = (events: ModelEvent[]) => events.filter((e): e is Retry => e.type === 'retry')

describe('Gemini retries retryable failures itself (the SDK never does)', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  const stream = (providerOptions: Parameters<typeof gemini>[0] = {}, overrides: Parameters<typeof request>[0] = {}) =>
    collect(gemini({ apiKey: 'test-key', baseURL: server.url, ...providerOptions }).stream(request(overrides)))

  it('waits the RetryInfo retryDelay of a 429 RESOURCE_EXHAUSTED, then succeeds', async () => {
    const before = server.requests.length
    server.enqueue(googleError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota.', [retryInfo('0.01s')]), {
      body: scenario('text.three-chunks.sse'),
    })
    const events = await stream({}, { maxRetries: 2 })
    expect(server.requests.length - before).toBe(2)
    const [retry] = retries(events)
    expect(retries(events)).toHaveLength(1)
    expect(retry!.attempt).toBe(1)
    expect(retry!.delayMs).toBe(10)
    expect(retry!.error).toMatchObject({ code: 'provider_error', status: 429, retryable: true, provider: 'gemini' })
    expect(final(events).type).toBe('done')
    expect(assistantText(events)).toBe('The capital of France is Paris — ünïcödé ✓.')
    expect(events.filter((e) => e.type === 'start')).toHaveLength(1)
  })

  it('caps a long server-requested delay at maxRetryDelayMs', async () => {
    server.enqueue(googleError(429, 'RESOURCE_EXHAUSTED', 'quota', [retryInfo('26s')]), {
      body: scenario('text.three-chunks.sse'),
    })
    const events = await stream({ maxRetryDelayMs: 20 }, { maxRetries: 1 })
    expect(retries(events).map((r) => r.delayMs)).toEqual([20])
    expect(final(events).type).toBe('done')
  })

  it('retries a 503 UNAVAILABLE with backoff, then succeeds', async () => {
    const before = server.requests.length
    server.enqueue(googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'), {
      body: scenario('text.three-chunks.sse'),
    })
    const events = await stream({}, { maxRetries: 2 })
    expect(server.requests.length - before).toBe(2)
    expect(retries(events)).toHaveLength(1)
    expect(retries(events)[0]!.error.status).toBe(503)
    expect(final(events).type).toBe('done')
  })

  it('retries a connection dropped before any response', async () => {
    const before = server.requests.length
    server.enqueue({ body: 'x', destroyAfterBytes: 0 }, { body: scenario('text.three-chunks.sse') })
    const events = await stream({}, { maxRetries: 1 })
    expect(server.requests.length - before).toBe(2)
    expect(retries(events)).toHaveLength(1)
    expect(retries(events)[0]!.error).toMatchObject({ retryable: true })
    expect(retries(events)[0]!.error.message).toMatch(/network/i)
    expect(final(events).type).toBe('done')
  })

  it('retries a body cut off before the first complete event', async () => {
    server.enqueue(
      { body: scenario('text.three-chunks.sse'), chunkSize: 10, destroyAfterBytes: 20 },
      { body: scenario('text.three-chunks.sse') },
    )
    const events = await stream({}, { maxRetries: 1 })
    expect(retries(events)).toHaveLength(1)
    expect(assistantText(events)).toBe('The capital of France is Paris — ünïcödé ✓.')
  })

  it('retries a stream that stays silent past streamIdleTimeoutMs', async () => {
    const before = server.requests.length
    server.enqueue(
      { body: scenario('text.three-chunks.sse'), chunkSize: 5, stallAfterBytes: 5 },
      { body: scenario('text.three-chunks.sse') },
    )
    const started = Date.now()
    const events = await stream({ streamIdleTimeoutMs: 10_000 }, { maxRetries: 1, streamIdleTimeoutMs: 150 })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(server.requests.length - before).toBe(2)
    expect(retries(events)).toHaveLength(1)
    expect(retries(events)[0]!.error.message).toMatch(/idle/)
    expect(final(events).type).toBe('done')
  })

  it('uses the provider default retry budget when the request sets none', async () => {
    const before = server.requests.length
    server.enqueue(
      googleError(500, 'INTERNAL', 'internal'),
      googleError(504, 'DEADLINE_EXCEEDED', 'deadline'),
      googleError(503, 'UNAVAILABLE', 'overloaded'),
    )
    const events = await collect(
      gemini({ apiKey: 'test-key', baseURL: server.url, maxRetries: 2 }).stream({
        ...request(),
        maxRetries: undefined as unknown as number,
      }),
    )
    expect(server.requests.length - before).toBe(3)
    expect(retries(events).map((r) => r.error.status)).toEqual([500, 504])
    const end = final(events)
    expect(end.type).toBe('error')
    expect(end.type === 'error' && end.error.status).toBe(503)
  })

  it('lets request.maxRetries override the provider default', async () => {
    const before = server.requests.length
    server.enqueue(googleError(503, 'UNAVAILABLE', 'overloaded'))
    const events = await stream({ maxRetries: 5 }, { maxRetries: 0 })
    expect(server.requests.length - before).toBe(1)
    expect(retries(events)).toHaveLength(0)
    expect(final(events).type).toBe('error')
  })
})
