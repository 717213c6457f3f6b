import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anthropic } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, request } from '../../support/anthropic-wire.js'

const key = 'sk-ant-api03-SECRET-do-not-echo-0123456789'

describe('anthropic provider key redaction', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('hides a key echoed by a 401 from the error and every event', async () => {
    server.enqueue({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'error',
        error: { type: 'authentication_error', message: `invalid x-api-key: ${key}` },
      }),
    })
    const provider = anthropic({ baseURL: server.url, apiKey: key })
    const { events, final } = await collect(provider.stream(request()))
    // The key did reach the server (so the test would see it if it leaked back).
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${key}`)
    expect(final.type).toBe('error')
    if (final.type !== 'error') return
    expect(final.error).toMatchObject({ code: 'provider_error', status: 401, retryable: false })
    expect(final.error.message).toContain('[REDACTED]')
    expect(final.error.message).not.toContain(key)
    expect(JSON.stringify(final.error)).not.toContain(key)
    expect(String(final.error.stack)).not.toContain(key)
    expect(JSON.stringify(events)).not.toContain(key)
    expect(provider.secrets?.()).toEqual([key])
  })
})
