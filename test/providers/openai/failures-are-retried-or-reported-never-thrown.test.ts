import { openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import * as chat from '../wire/openai/chat-scenarios.js'
import { collect, request, useWire } from '../../support/openai-wire.js'

const json = { 'content-type': 'application/json' }

describe('openai: failures are retried or end the stream as an error result', () => {
  const wire = useWire()
  const provider = (extra: Parameters<typeof openai>[0] = {}) =>
    openai({ baseURL: wire.baseURL, apiKey: 'sk-test', ...extra })

  it('retries a 429 after the retry-after-ms wait: one retry event, then done, two requests', async () => {
    wire.server.enqueue(
      {
        status: 429,
        headers: { ...json, 'retry-after-ms': '10' },
        body: chat.errorBody('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
      },
      { body: chat.text() },
    )
    const { events, last } = await collect(provider().stream(request()))
    const retries = events.filter((e) => e.type === 'retry')
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({
      type: 'retry',
      attempt: 1,
      delayMs: 10,
      error: { code: 'provider_error', status: 429, retryable: true },
    })
    expect(last.type).toBe('done')
    expect(wire.server.requests).toHaveLength(2)
    // The SDK's own retries are off: each HTTP attempt is one of ours.
    expect(wire.server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0'])
  })

  it('retries a 500 twice with maxRetries 2 and then succeeds', async () => {
    const fail = {
      status: 500,
      headers: { ...json, 'retry-after-ms': '1' },
      body: chat.errorBody('The server had an error', 'server_error', null),
    }
    wire.server.enqueue(fail, fail, { body: chat.text() })
    const { events, final } = await collect(provider({ maxRetries: 2 }).stream(request()))
    expect(events.filter((e) => e.type === 'retry').map((e) => (e.type === 'retry' ? e.attempt : 0))).toEqual([1, 2])
    expect(final.stopReason).toBe('stop')
    expect(wire.server.requests).toHaveLength(3)
  })

  it('gives up after the request-level maxRetries, which overrides the provider default', async () => {
    const fail = {
      status: 503,
      headers: { ...json, 'retry-after-ms': '1' },
      body: chat.errorBody('overloaded', 'server_error', null),
    }
    wire.server.enqueue(fail, fail, fail)
    const { events, last } = await collect(provider({ maxRetries: 5 }).stream(request({ maxRetries: 1 })))
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1)
    expect(last).toMatchObject({ type: 'error', error: { status: 503, retryable: true } })
    expect(wire.server.requests).toHaveLength(2)
  })

  it('fails a 400 at once with provider_error, status 400, not retryable, one request', async () => {
    wire.server.enqueue({
      status: 400,
      headers: json,
      body: chat.errorBody("Invalid 'tools[0].function.name'", 'invalid_request_error', 'invalid_value'),
    })
    const { events, last, final } = await collect(provider().stream(request()))
    expect(events.some((e) => e.type === 'retry')).toBe(false)
    expect(last).toMatchObject({
      type: 'error',
      error: { code: 'provider_error', status: 400, provider: 'openai', retryable: false },
    })
    expect(final.stopReason).toBe('error')
    expect(final.errorMessage).toContain("Invalid 'tools[0].function.name'")
    expect(wire.server.requests).toHaveLength(1)
  })

  it('does not retry a 429 insufficient_quota: a retry cannot succeed', async () => {
    wire.server.enqueue(
      {
        status: 429,
        headers: { ...json, 'retry-after-ms': '1' },
        body: chat.errorBody('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota'),
      },
      { body: chat.text() },
    )
    const { last } = await collect(provider().stream(request()))
    expect(last).toMatchObject({ type: 'error', error: { status: 429, retryable: false } })
    expect(wire.server.requests).toHaveLength(1)
  })

  it('retries a network failure (socket destroyed before the headers)', async () => {
    wire.server.enqueue({ body: chat.text(), destroyAfterBytes: 0 }, { body: chat.text() })
    const { events, final } = await collect(provider({ maxRetryDelayMs: 5 }).stream(request()))
    const retry = events.find((e) => e.type === 'retry')
    expect(retry).toMatchObject({ error: { code: 'provider_error', retryable: true } })
    expect(final.content).toEqual([{ type: 'text', text: 'The weather in Paris is sunny.' }])
    expect(wire.server.requests).toHaveLength(2)
  })

  it('keeps the partial text and ends with stopReason aborted when the signal aborts mid-stream', async () => {
    wire.server.enqueue({ body: chat.text(), chunkSize: 40, delayMs: 30 })
    const controller = new AbortController()
    const events = []
    for await (const event of provider().stream(request(), controller.signal)) {
      events.push(event)
      if (event.type === 'text_delta') controller.abort()
    }
    const last = events.at(-1)
    expect(last?.type).toBe('error')
    if (last?.type !== 'error') return
    expect(last.error.code).toBe('aborted')
    expect(last.message.stopReason).toBe('aborted')
    expect(last.message.content).toEqual([{ type: 'text', text: 'The' }])
    expect(events.filter((e) => e.type === 'done' || e.type === 'error')).toHaveLength(1)
  })

  it('makes no request when the signal is already aborted', async () => {
    const { last, final } = await collect(provider().stream(request(), AbortSignal.abort()))
    expect(last.type).toBe('error')
    expect(final.stopReason).toBe('aborted')
    expect(wire.server.requests).toHaveLength(0)
  })

  it('retries a stream that goes silent and fails after the retries are spent', async () => {
    // 37 bytes is inside the first (content-free) chunk, so retrying is still safe.
    const stall = { body: chat.text(), stallAfterBytes: 37 }
    wire.server.enqueue(stall, stall)
    const started = Date.now()
    const { events, last, final } = await collect(
      provider({ streamIdleTimeoutMs: 5_000, maxRetryDelayMs: 5 }).stream(
        request({ maxRetries: 1, streamIdleTimeoutMs: 100 }),
      ),
    )
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1)
    expect(last).toMatchObject({ type: 'error', error: { code: 'provider_error', retryable: true } })
    expect(final.errorMessage).toMatch(/idle/)
    expect(wire.server.requests).toHaveLength(2)
    // The request-level 100 ms won over the provider's 5 s.
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it('ends a malformed stream (a data line that is not JSON) as an error result, keeping what arrived', async () => {
    wire.server.enqueue({ body: chat.garbage() })
    const { last, final } = await collect(provider().stream(request()))
    expect(last).toMatchObject({ type: 'error', error: { code: 'provider_error', retryable: false } })
    expect(final.errorMessage).toMatch(/malformed stream/)
    expect(final.content).toEqual([{ type: 'text', text: 'Hel' }])
  })

  it('ends an error object inside a 200 stream as a non-retryable error result', async () => {
    wire.server.enqueue({ body: chat.inStreamError() }, { body: chat.text() })
    const { events, last } = await collect(provider().stream(request()))
    expect(events.some((e) => e.type === 'retry')).toBe(false)
    expect(last).toMatchObject({ type: 'error', error: { code: 'provider_error', retryable: false } })
    expect(last.type === 'error' && last.error.status).toBeUndefined()
    expect(wire.server.requests).toHaveLength(1)
  })

  it('fails as an error result, not a throw, when the stream ends without a finish_reason', async () => {
    wire.server.enqueue({
      body: chat.text().split('"finish_reason":"stop"')[0]!.split('\n\n').slice(0, 3).join('\n\n') + '\n\n',
    })
    const { last, final } = await collect(provider({ maxRetries: 0 }).stream(request()))
    expect(last.type).toBe('error')
    expect(final.errorMessage).toMatch(/finish_reason/)
  })

  it('never lets the API key into events or errors, even when the server echoes it', async () => {
    const key = 'sk-proj-SECRETkey1234567890'
    const echo = (status: number) => ({
      status,
      headers: { ...json, 'retry-after-ms': '1' },
      body: chat.errorBody(
        `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_request_error',
        'invalid_api_key',
      ),
    })
    wire.server.enqueue(echo(500), echo(401))
    const p = openai({ baseURL: wire.baseURL, apiKey: key })
    expect(p.secrets?.()).toEqual([key])
    const { events, last } = await collect(p.stream(request()))
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1)
    expect(last).toMatchObject({ type: 'error', error: { status: 401, retryable: false } })
    for (const event of events) {
      const text =
        JSON.stringify(event) +
        (event.type === 'error' || event.type === 'retry' ? event.error.message + String(event.error.stack) : '')
      expect(text).not.toContain(key)
    }
    expect(last.type === 'error' && last.error.message).toContain('[REDACTED]')
    // The key did reach the server, as a bearer token.
    expect(wire.server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`)
  })

  it("reports a missing API key as an invalid_options error result; a baseURL's server gets no key and no Authorization", async () => {
    const saved = process.env.OPENAI_API_KEY
    delete process.env.OPENAI_API_KEY
    try {
      // OpenAI's own API: no key is a configuration error, before any request.
      const { last } = await collect(openai({ maxRetries: 0 }).stream(request()))
      expect(last).toMatchObject({ type: 'error', error: { code: 'invalid_options', retryable: false } })
      expect(last.type === 'error' && last.error.message).toMatch(/OPENAI_API_KEY/)
      // A keyless local server at a baseURL: the call goes through, with no Authorization header.
      wire.server.enqueue({ body: chat.text() })
      const local = await collect(openai({ baseURL: wire.baseURL }).stream(request()))
      expect(local.last.type).toBe('done')
      expect(wire.server.requests).toHaveLength(1)
      expect(wire.server.requests[0]!.headers.authorization).toBeUndefined()
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved
    }
  })
})
