import { openai } from '@nestor/providers'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import * as chat from '../wire/openai/chat-scenarios.js'
import { collect, request, useWire } from '../../support/openai-wire.js'

describe('openai provider options', () => {
  const wire = useWire()

  it('reports capabilities from a static table by model prefix', async () => {
    const provider = openai({ apiKey: 'sk-test' })
    expect(await provider.capabilities?.('gpt-4o-mini')).toEqual({
      tools: true,
      thinking: false,
      contextWindow: 128_000,
    })
    expect(await provider.capabilities?.('gpt-5-mini')).toEqual({ tools: true, thinking: true, contextWindow: 400_000 })
    expect(await provider.capabilities?.('o3-mini')).toMatchObject({ thinking: true })
    expect(await provider.capabilities?.('some-future-model')).toEqual({ tools: true, thinking: false })
  })

  it('uses an injected SDK client, with its retries overridden to zero, and hides its key', async () => {
    wire.server.enqueue({
      status: 503,
      headers: { 'content-type': 'application/json' },
      body: chat.errorBody('busy', 'server_error', null),
    })
    const client = new OpenAI({ apiKey: 'sk-injected-key-123', baseURL: wire.baseURL, maxRetries: 5 })
    const provider = openai({ client, name: 'my-openai', maxRetries: 0 })
    expect(provider.secrets?.()).toEqual(['sk-injected-key-123'])
    const { last, final } = await collect(provider.stream(request()))
    expect(last).toMatchObject({ type: 'error', error: { status: 503, provider: 'my-openai' } })
    expect(final.provider).toBe('my-openai')
    // One HTTP request: neither the SDK (maxRetries 5 on the client) nor Nestor (maxRetries 0) retried.
    expect(wire.server.requests).toHaveLength(1)
    expect(wire.server.requests[0]?.headers.authorization).toBe('Bearer sk-injected-key-123')
  })

  it('reads the key from OPENAI_API_KEY by default', async () => {
    const saved = process.env.OPENAI_API_KEY
    process.env.OPENAI_API_KEY = 'sk-from-env-456'
    try {
      wire.server.enqueue({ body: chat.text() })
      const provider = openai({ baseURL: wire.baseURL })
      expect(provider.secrets?.()).toEqual(['sk-from-env-456'])
      await collect(provider.stream(request()))
      expect(wire.server.requests[0]?.headers.authorization).toBe('Bearer sk-from-env-456')
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY
      else process.env.OPENAI_API_KEY = saved
    }
  })
})
