import { openai, replay } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../support/wire-server.js'
import { nativeToolCall, textAnswer } from './chat-sse.js'
import { drain, filesIn, tempDir, weatherRequest } from '../support/cassette-files.js'

describe('replay: record against a real HTTP server, then replay offline', () => {
  let wire: WireServer | undefined
  afterEach(async () => {
    await wire?.close()
    wire = undefined
  })

  it('replays exactly the events the recording saw, without touching the network', async () => {
    wire = await startWireServer()
    wire.enqueue({ body: nativeToolCall('call_w1', 'get_weather', ['{"ci', 'ty":"Pa', 'ris"}']) })
    const dir = await tempDir()
    const live = openai({ baseURL: `${wire.url}/v1`, apiKey: 'sk-test-recording-key', maxRetries: 0 })
    const recorded = await drain(replay({ provider: live, dir, mode: 'record' }), weatherRequest())
    expect(wire.requests).toHaveLength(1)
    expect(recorded.at(-1)).toMatchObject({ type: 'done', message: { stopReason: 'toolUse' } })
    await wire.close()
    wire = undefined

    const replayed = await drain(replay({ dir, mode: 'strict' }), weatherRequest())
    expect(replayed).toEqual(recorded)
  })

  it('writes one versioned, pretty-printed file named by the request key', async () => {
    wire = await startWireServer()
    wire.enqueue({ body: textAnswer(['Sunny', ' and 21 °C.']) })
    const dir = await tempDir()
    const provider = replay({
      provider: openai({ baseURL: `${wire.url}/v1`, apiKey: 'sk-test-recording-key', maxRetries: 0 }),
      dir,
      mode: 'record',
    })
    await drain(provider, weatherRequest())
    const [file, ...others] = await filesIn(dir)
    expect(others).toEqual([])
    const key = provider.keyOf(weatherRequest())
    expect(file?.name).toBe(`${key}.json`)
    const cassette = JSON.parse(file?.text ?? '') as {
      version: number
      key: string
      request: { model: string; system: string }
      events: { type: string }[]
    }
    expect(cassette).toMatchObject({
      version: 1,
      key,
      request: { model: 'gpt-4o-mini', system: 'You answer weather questions.' },
    })
    expect(cassette.events.map((e) => e.type)).toEqual(['start', 'text_delta', 'text_delta', 'done'])
    expect(file?.text).toContain('\n  "version": 1,')
  })

  it('auto mode records a miss once, then replays it', async () => {
    wire = await startWireServer()
    wire.enqueue({ body: textAnswer(['Rain.']) })
    const dir = await tempDir()
    const provider = replay({
      provider: openai({ baseURL: `${wire.url}/v1`, apiKey: 'sk-test-recording-key', maxRetries: 0 }),
      dir,
      mode: 'auto',
    })
    const first = await drain(provider, weatherRequest())
    const second = await drain(provider, weatherRequest())
    expect(wire.requests).toHaveLength(1)
    expect(second).toEqual(first)
  })

  it('does not record a call that failed, so the next auto run asks again', async () => {
    wire = await startWireServer()
    wire.enqueue({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"message":"bad request","type":"invalid_request_error"}}',
    })
    const dir = await tempDir()
    const provider = replay({
      provider: openai({ baseURL: `${wire.url}/v1`, apiKey: 'sk-test-recording-key', maxRetries: 0 }),
      dir,
      mode: 'auto',
    })
    const events = await drain(provider, weatherRequest())
    expect(events.at(-1)).toMatchObject({ type: 'error' })
    expect(await filesIn(dir)).toEqual([])
  })
})
