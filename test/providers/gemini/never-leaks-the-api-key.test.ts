import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gemini } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, final, googleError, request, retryInfo, scenario } from '../../support/gemini-wire.js'

const KEY = 'AIzaSy-nestor-secret-0123456789'

describe('the Gemini API key stays out of events and errors', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('sends the key only in the x-goog-api-key header, never in the URL or body', async () => {
    server.enqueue({ body: scenario('text.three-chunks.sse') })
    await collect(gemini({ apiKey: KEY, baseURL: server.url }).stream(request()))
    const captured = server.requests.at(-1)!
    expect(captured.headers['x-goog-api-key']).toBe(KEY)
    expect(captured.url).not.toContain(KEY)
    expect(captured.body).not.toContain(KEY)
  })

  it('redacts a key echoed in error bodies from every retry event and the final error', async () => {
    server.enqueue(
      googleError(429, 'RESOURCE_EXHAUSTED', `Quota exceeded for key ${KEY}.`, [
        retryInfo('0.01s'),
        { '@type': 'type.googleapis.com/google.rpc.Help', note: KEY },
      ]),
      googleError(400, 'INVALID_ARGUMENT', `API key not valid: ${KEY}`),
    )
    const events = await collect(gemini({ apiKey: KEY, baseURL: server.url }).stream(request({ maxRetries: 2 })))
    expect(events.some((e) => e.type === 'retry')).toBe(true)
    const end = final(events)
    expect(end.type).toBe('error')
    const serialized = JSON.stringify(events, (_k, v: unknown) =>
      v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v,
    )
    expect(serialized).not.toContain(KEY)
    expect(serialized).toContain('[REDACTED]')
    expect(end.type === 'error' && end.error.message).toContain('API key not valid: [REDACTED]')
  })

  it('lists the key as the provider secret, taken from GEMINI_API_KEY by default', () => {
    const saved = { gemini: process.env.GEMINI_API_KEY, google: process.env.GOOGLE_API_KEY }
    try {
      process.env.GEMINI_API_KEY = KEY
      process.env.GOOGLE_API_KEY = 'other-google-key'
      expect(gemini().secrets?.()).toEqual([KEY])
      delete process.env.GEMINI_API_KEY
      expect(gemini().secrets?.()).toEqual(['other-google-key'])
    } finally {
      if (saved.gemini === undefined) delete process.env.GEMINI_API_KEY
      else process.env.GEMINI_API_KEY = saved.gemini
      if (saved.google === undefined) delete process.env.GOOGLE_API_KEY
      else process.env.GOOGLE_API_KEY = saved.google
    }
  })
})
