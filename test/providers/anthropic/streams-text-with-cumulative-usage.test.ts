import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anthropic } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, request, scenario, type Body } from '../../support/anthropic-wire.js'

describe('anthropic provider streaming plain text', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('emits start, text deltas and done with the text, stop reason and cumulative usage', async () => {
    server.enqueue({ body: scenario('text.sse') })
    const provider = anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' })
    const { events, final } = await collect(provider.stream(request({ system: 'Be brief.' })))

    expect(events[0]?.type).toBe('start')
    const deltas = events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.delta : ''))
    expect(deltas).toEqual(['Bonjour, ', 'le monde — ça va ? 🦜'])
    expect(final.type).toBe('done')
    expect(final.message.content).toEqual([{ type: 'text', text: 'Bonjour, le monde — ça va ? 🦜' }])
    expect(final.message.stopReason).toBe('stop')
    expect(final.message.provider).toBe('anthropic')
    expect(final.message.model).toBe('claude-sonnet-4-6')
    // message_delta usage replaces message_start usage (cumulative), never adds to it.
    expect(final.message.usage).toEqual({ input: 25, output: 42, cacheRead: 100, cacheWrite: 50, total: 217 })
  })

  it('sends one streaming POST /v1/messages with system, max_tokens default and no sampling knobs', async () => {
    server.requests.length = 0
    server.enqueue({ body: scenario('text.sse') })
    await collect(anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }).stream(request({ system: 'Be brief.' })))
    expect(server.requests).toHaveLength(1)
    const captured = server.requests[0]!
    expect(captured.method).toBe('POST')
    expect(captured.url).toBe('/v1/messages')
    expect(captured.headers['authorization']).toBe('Bearer sk-ant-test')
    const body = captured.json as Body
    expect(body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 4096, stream: true, system: 'Be brief.' })
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])
    expect(body).not.toHaveProperty('temperature')
    expect(body).not.toHaveProperty('top_p')
    expect(body).not.toHaveProperty('top_k')
    expect(body).not.toHaveProperty('tools')
    expect(body).not.toHaveProperty('tool_choice')
  })

  it('sends temperature and other knobs only when the request passes them', async () => {
    server.requests.length = 0
    server.enqueue({ body: scenario('text.sse') })
    const provider = anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxTokens: 100 })
    await collect(
      provider.stream(request({ options: { temperature: 0.2, topK: 5, stopSequences: ['END'], maxTokens: 256 } })),
    )
    const body = server.requests[0]!.json as Body
    expect(body).toMatchObject({ temperature: 0.2, top_k: 5, stop_sequences: ['END'], max_tokens: 256 })
    expect(body).not.toHaveProperty('top_p')
  })
})
