import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ModelEvent } from '@nestor/core/integration-kit'
import Anthropic from '@anthropic-ai/sdk'
import { anthropic } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, request, scenario } from '../../support/anthropic-wire.js'

const json = { 'content-type': 'application/json' }
const errorBody = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message } })
const retries = (events: ModelEvent[]) =>
  events.filter((e): e is Extract<ModelEvent, { type: 'retry' }> => e.type === 'retry')

describe('anthropic provider retries', () => {
  let server: WireServer
  const provider = (extra: Parameters<typeof anthropic>[0] = {}) =>
    anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', ...extra })
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())
  beforeEach(() => {
    server.requests.length = 0
  })

  it('retries a 529 overloaded once, waiting the retry-after-ms the server asked for', async () => {
    server.enqueue(
      { status: 529, headers: { ...json, 'retry-after-ms': '15' }, body: errorBody('overloaded_error', 'Overloaded') },
      { body: scenario('text.sse') },
    )
    const { events, final } = await collect(provider().stream(request()))
    expect(retries(events)).toHaveLength(1)
    expect(retries(events)[0]).toMatchObject({
      attempt: 1,
      delayMs: 15,
      error: { code: 'provider_error', status: 529, retryable: true },
    })
    expect(server.requests).toHaveLength(2)
    expect(final.type).toBe('done')
    expect(events.filter((e) => e.type === 'start')).toHaveLength(1)
  })

  it('retries a 429 honouring retry-after in seconds', async () => {
    server.enqueue(
      { status: 429, headers: { ...json, 'retry-after': '0.05' }, body: errorBody('rate_limit_error', 'slow down') },
      { body: scenario('text.sse') },
    )
    const { events, final } = await collect(provider().stream(request()))
    expect(retries(events).map((r) => r.delayMs)).toEqual([50])
    expect(retries(events)[0]?.error.status).toBe(429)
    expect(server.requests).toHaveLength(2)
    expect(final.type).toBe('done')
  })

  it('gives up on a 500 after maxRetries + 1 requests with a retryable provider_error', async () => {
    const failing = {
      status: 500,
      headers: { ...json, 'retry-after-ms': '1' },
      body: errorBody('api_error', 'Internal server error'),
    }
    server.enqueue(failing, failing, failing)
    const { events, final } = await collect(provider({ maxRetries: 2 }).stream(request()))
    expect(server.requests).toHaveLength(3)
    expect(retries(events)).toHaveLength(2)
    expect(final.type).toBe('error')
    expect(final.type === 'error' && final.error).toMatchObject({
      code: 'provider_error',
      status: 500,
      retryable: true,
      provider: 'anthropic',
    })
    expect(final.message.stopReason).toBe('error')
    server.requests.length = 0
    server.enqueue(failing)
    server.fallback = () => ({ body: 'unexpected extra request', status: 418 })
    // The request's own budget overrides the provider default.
    const once = await collect(provider({ maxRetries: 2 }).stream(request({ maxRetries: 0 })))
    delete server.fallback
    expect(server.requests).toHaveLength(1)
    expect(once.final.type === 'error' && once.final.error.status).toBe(500)
  })

  it('fails a 400 at once with its status after one request', async () => {
    server.enqueue({
      status: 400,
      headers: json,
      body: errorBody('invalid_request_error', 'temperature is not supported'),
    })
    const { events, final } = await collect(provider().stream(request()))
    expect(server.requests).toHaveLength(1)
    expect(retries(events)).toHaveLength(0)
    expect(final.type === 'error' && final.error).toMatchObject({
      code: 'provider_error',
      status: 400,
      retryable: false,
    })
    expect(final.message.errorMessage).toContain('temperature is not supported')
  })

  it('retries a socket destroyed before the response and one destroyed mid-body before any content', async () => {
    // Without delays the server's buffered writes die with the socket: the client never sees headers.
    server.enqueue(
      { body: scenario('text.sse'), destroyAfterBytes: 74 },
      { body: scenario('text.sse'), destroyAfterBytes: 74, delayMs: 3 },
      { body: scenario('text.sse') },
    )
    const { events, final } = await collect(provider({ maxRetries: 2, maxRetryDelayMs: 5 }).stream(request()))
    expect(server.requests).toHaveLength(3)
    expect(retries(events).map((r) => r.error.message)).toEqual([
      'connection error: Connection error.',
      'connection lost: terminated',
    ])
    expect(retries(events).every((r) => r.error.retryable === true)).toBe(true)
    expect(final.type).toBe('done')
    expect(final.message.content).toEqual([{ type: 'text', text: 'Bonjour, le monde — ça va ? 🦜' }])
  })

  it('does not retry a socket destroyed after text was streamed, and keeps that text', async () => {
    server.enqueue({ body: scenario('text.sse'), destroyAfterBytes: 700, delayMs: 3 })
    const { events, final } = await collect(provider().stream(request()))
    expect(server.requests).toHaveLength(1)
    expect(retries(events)).toHaveLength(0)
    expect(final.type === 'error' && final.error).toMatchObject({ code: 'provider_error', retryable: false })
    expect(final.message.content).toEqual([{ type: 'text', text: 'Bonjour, ' }])
    expect(final.message.usage).toMatchObject({ input: 25, cacheRead: 100, cacheWrite: 50 })
  })

  it('retries a stream that goes silent past streamIdleTimeoutMs', async () => {
    server.enqueue({ body: scenario('text.sse'), stallAfterBytes: 111 }, { body: scenario('text.sse') })
    const started = Date.now()
    const { events, final } = await collect(
      provider({ streamIdleTimeoutMs: 60_000 }).stream(request({ streamIdleTimeoutMs: 150 })),
    )
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(server.requests).toHaveLength(2)
    expect(retries(events)).toHaveLength(1)
    expect(retries(events)[0]?.error.message).toContain('idle')
    expect(final.type).toBe('done')
  })

  it('turns a malformed JSON data line into an error result instead of crashing', async () => {
    const broken = scenario('text.sse').replace('"text_delta","text":"Bonjour, "}}', '"text_delta","text":"Bonjour, "')
    expect(broken).not.toBe(scenario('text.sse'))
    server.enqueue({ body: broken })
    const { final } = await collect(provider({ maxRetries: 0 }).stream(request()))
    expect(final.type).toBe('error')
    expect(final.type === 'error' && final.error).toMatchObject({ code: 'provider_error', retryable: false })
    expect(final.message.stopReason).toBe('error')
  })

  it('bypasses the retries of an injected SDK client, so each attempt is one request', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-injected-key', baseURL: server.url, maxRetries: 5 })
    const failing = {
      status: 503,
      headers: { ...json, 'retry-after-ms': '1' },
      body: errorBody('api_error', 'unavailable'),
    }
    server.enqueue(failing, failing)
    const provider = anthropic({ client, maxRetries: 1 })
    const { events, final } = await collect(provider.stream(request()))
    expect(server.requests).toHaveLength(2)
    expect(retries(events)).toHaveLength(1)
    expect(final.type === 'error' && final.error.status).toBe(503)
    expect(provider.secrets?.()).toContain('sk-ant-injected-key')
  })

  it('reports a missing API key as an error event, not a throw', async () => {
    const saved = process.env.ANTHROPIC_API_KEY
    delete process.env.ANTHROPIC_API_KEY
    try {
      const { final } = await collect(anthropic({ baseURL: server.url }).stream(request()))
      expect(final.type === 'error' && final.error).toMatchObject({ code: 'invalid_options' })
      expect(server.requests).toHaveLength(0)
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved
    }
  })
})
