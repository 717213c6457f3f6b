import { describe, expect, it } from 'vitest'
import {
  collect,
  credentials,
  errorResponse,
  modelId,
  provider,
  streamResponse,
  text,
  useBedrockWire,
} from '../../support/bedrock-wire.js'

const request = { model: modelId, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }

describe('bedrock: failures are retried before content or reported, never thrown', () => {
  const wire = useBedrockWire()

  it('retries an HTTP 429 ThrottlingException, then answers', async () => {
    wire.server.enqueue(
      errorResponse(429, 'ThrottlingException', 'Too many requests, please wait before trying again.'),
      streamResponse(text('ok')),
    )
    const { events, last } = await collect(provider(wire.server, { maxRetryDelayMs: 5 }).stream(request))
    const retries = events.filter((e) => e.type === 'retry')
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({
      attempt: 1,
      error: { code: 'provider_error', status: 429, retryable: true, provider: 'bedrock' },
    })
    expect(last).toMatchObject({ type: 'done', message: { content: [{ type: 'text', text: 'ok' }] } })
    // The SDK's own retries are off: exactly our two attempts reached the server.
    expect(wire.server.requests).toHaveLength(2)
  })

  it('retries a serviceUnavailableException that arrives inside the event stream before content', async () => {
    wire.server.enqueue(
      streamResponse([
        { event: 'messageStart', body: { role: 'assistant' } },
        { exception: 'serviceUnavailableException', body: { message: 'busy' } },
      ]),
      streamResponse(text('ok')),
    )
    const { events, last } = await collect(provider(wire.server, { maxRetryDelayMs: 5 }).stream(request))
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1)
    expect(events.filter((e) => e.type === 'start')).toHaveLength(1)
    expect(last.type).toBe('done')
  })

  it('a modelStreamErrorException after text ends the stream with the partial text, not retried', async () => {
    wire.server.enqueue(
      streamResponse([
        { event: 'messageStart', body: { role: 'assistant' } },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text: 'Half an ans' } } },
        { exception: 'modelStreamErrorException', body: { message: 'model stream failed', originalStatusCode: 500 } },
      ]),
    )
    const { events, last } = await collect(provider(wire.server, { maxRetryDelayMs: 5 }).stream(request))
    expect(events.some((e) => e.type === 'retry')).toBe(false)
    expect(last).toMatchObject({
      type: 'error',
      message: { stopReason: 'error', content: [{ type: 'text', text: 'Half an ans' }] },
      error: { retryable: false },
    })
  })

  it('a 400 ValidationException fails at once, and the secret key appears nowhere', async () => {
    wire.server.enqueue(
      errorResponse(
        400,
        'ValidationException',
        `The provided model identifier is invalid (${credentials.secretAccessKey}).`,
      ),
    )
    const { events, last } = await collect(provider(wire.server).stream(request))
    expect(events.map((e) => e.type)).toEqual(['start', 'error'])
    expect(last).toMatchObject({ error: { status: 400, retryable: false } })
    expect(last.type === 'error' && last.error.message).toMatch(/^ValidationException: /)
    expect(JSON.stringify(events)).not.toContain(credentials.secretAccessKey)
  })
})
