import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { anthropic } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { request, scenario } from '../../support/anthropic-wire.js'

describe('anthropic provider abort', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('ends with one error event, stopReason aborted and the text streamed so far', async () => {
    server.enqueue({ body: scenario('text.sse'), chunkSize: 16, delayMs: 15 })
    const controller = new AbortController()
    const events: ModelEvent[] = []
    const started = Date.now()
    for await (const event of anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }).stream(
      request(),
      controller.signal,
    )) {
      events.push(event)
      if (event.type === 'text_delta') controller.abort()
    }
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(events.filter((e) => e.type === 'done' || e.type === 'error')).toHaveLength(1)
    const final = events.at(-1)
    expect(final?.type).toBe('error')
    if (final?.type !== 'error') return
    expect(final.error.code).toBe('aborted')
    expect(final.message.stopReason).toBe('aborted')
    expect(final.message.content).toEqual([{ type: 'text', text: 'Bonjour, ' }])
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(0)
  })

  it('aborted before the request ends at once with an aborted error', async () => {
    const controller = new AbortController()
    controller.abort()
    const events: ModelEvent[] = []
    for await (const event of anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }).stream(
      request(),
      controller.signal,
    ))
      events.push(event)
    expect(events.map((e) => e.type)).toEqual(['start', 'error'])
    expect(events.at(-1)).toMatchObject({ type: 'error', message: { stopReason: 'aborted' } })
  })
})
