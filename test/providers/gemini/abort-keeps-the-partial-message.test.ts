import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gemini } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { geminiSse, final, request } from '../../support/gemini-wire.js'

describe('aborting a Gemini stream', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  const slowText = (n: number) =>
    geminiSse([
      ...Array.from({ length: n }, (_, i) => ({
        candidates: [{ content: { role: 'model', parts: [{ text: `w${i} ` }] } }],
      })),
      { candidates: [{ content: { role: 'model', parts: [{ text: 'end' }] }, finishReason: 'STOP' }] },
    ])

  it('keeps the partial text with stopReason aborted, after a real abort signal mid-stream', async () => {
    const before = server.requests.length
    server.enqueue({ body: slowText(40), chunkSize: 80, delayMs: 30 })
    const controller = new AbortController()
    const events = []
    for await (const event of gemini({ apiKey: 'test-key', baseURL: server.url }).stream(
      request({ maxRetries: 2 }),
      controller.signal,
    )) {
      events.push(event)
      if (event.type === 'text_delta' && events.filter((e) => e.type === 'text_delta').length === 2) controller.abort()
    }
    const end = final(events)
    expect(end.type).toBe('error')
    expect(end.message.stopReason).toBe('aborted')
    expect(end.type === 'error' && end.error.code).toBe('aborted')
    const text = end.message.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
    expect(text.startsWith('w0 w1 ')).toBe(true)
    expect(text).not.toContain('end')
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(0)
    expect(server.requests.length - before).toBe(1)
  })

  it('ends at once with aborted when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const before = server.requests.length
    const events = []
    for await (const event of gemini({ apiKey: 'test-key', baseURL: server.url }).stream(
      request({ maxRetries: 2 }),
      controller.signal,
    ))
      events.push(event)
    expect(events.map((e) => e.type)).toEqual(['start', 'error'])
    expect(final(events).message.stopReason).toBe('aborted')
    // @google/generative-ai 0.24 ignores a signal that is aborted already; the adapter must not.
    expect(server.requests.length - before).toBe(0)
  })

  it('stops waiting for a retry delay when aborted', async () => {
    server.enqueue({
      status: 429,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: {
          code: 429,
          message: 'quota',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '20s' }],
        },
      }),
    })
    const controller = new AbortController()
    const started = Date.now()
    const events = []
    for await (const event of gemini({ apiKey: 'test-key', baseURL: server.url }).stream(
      request({ maxRetries: 2 }),
      controller.signal,
    )) {
      events.push(event)
      if (event.type === 'retry') controller.abort()
    }
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(final(events).message.stopReason).toBe('aborted')
  })
})
