import { readFileSync } from 'node:fs'
import { Runtime, type Provider } from '@nestor/core'
import { anthropic, gemini, openai } from '@nestor/providers'
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from '@nestor/providers/provider-kit'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import * as chat from '../wire/openai/chat-scenarios.js'

const wireFile = (provider: string, name: string) =>
  readFileSync(new URL(`../wire/${provider}/${name}`, import.meta.url), 'utf8')

/** Resolves with the value, or with 'still waiting' after `ms` of real time. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))])

describe('a stream that stalls after the headers, with no streamIdleTimeoutMs anywhere', () => {
  let wire: WireServer
  beforeEach(async () => {
    wire = await startWireServer()
  })
  afterEach(async () => {
    vi.useRealTimers()
    await wire.close()
  })

  const cases: [string, () => Provider, string][] = [
    [
      'openai (Chat Completions)',
      () => openai({ baseURL: `${wire.url}/v1`, apiKey: 'sk-test', maxRetries: 0 }),
      chat.text(),
    ],
    [
      'anthropic',
      () => anthropic({ baseURL: wire.url, apiKey: 'sk-ant-test', maxRetries: 0 }),
      wireFile('anthropic', 'text.sse'),
    ],
    [
      'gemini',
      () => gemini({ baseURL: wire.url, apiKey: 'test-key', maxRetries: 0 }),
      wireFile('gemini', 'text.three-chunks.sse'),
    ],
  ]

  it.each(cases)(
    '%s fails as an idle provider_error once the default idle timeout has passed',
    async (_name, makeProvider, body) => {
      // The first 37-byte piece (headers sent, no whole event) and then silence, connection open.
      wire.enqueue({ body, stallAfterBytes: 1 })
      // Only the clock the idle watch reads is faked; sockets and undici's own timers stay real.
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
      const run = new Runtime({ provider: makeProvider(), model: 'm' }).exec('hi')
      const result = run.then((r) => r)
      for (let i = 0; i < 100 && wire.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10))
      expect(wire.requests).toHaveLength(1)
      await new Promise((r) => setTimeout(r, 100))
      // Just short of the default: still waiting.
      vi.advanceTimersByTime(DEFAULT_STREAM_IDLE_TIMEOUT_MS - 5_000)
      expect(await within(result, 100)).toBe('still waiting')
      vi.advanceTimersByTime(10_000)
      const settled = await within(result, 2_000)
      expect(settled).not.toBe('still waiting')
      if (settled === 'still waiting') return
      expect(settled.status).toBe('failed')
      expect(settled.error).toMatchObject({ code: 'provider_error' })
      expect(settled.error?.message).toContain(`stream idle for ${DEFAULT_STREAM_IDLE_TIMEOUT_MS} ms`)
    },
  )
})
