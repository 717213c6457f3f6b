import { Runtime, defineTool } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { SessionEventStore } from '../../packages/mcp/src/http-event-store.js'
import { initialize, post } from './http-probe.js'

let release = () => {}
const hold = defineTool({
  name: 'hold',
  description: 'Runs until released',
  parameters: z.object({}),
  execute: () => new Promise<string>((resolve) => (release = () => resolve('released'))),
})
const runtime = new Runtime({ provider: scripted([]), model: 'm' })
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold', arguments: {} } })

type SseEvent = { id?: string; retry?: string; data: string }

/** The events of an SSE body, one at a time. */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  let buffer = ''
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event: SseEvent = { data: '' }
      for (const line of buffer.slice(0, end).split('\n')) {
        const [field, ...rest] = line.split(':')
        const value = rest.join(':').replace(/^ /, '')
        if (field === 'id' || field === 'retry') event[field] = value
        if (field === 'data') event.data += value
      }
      buffer = buffer.slice(end + 2)
      if (event.id !== undefined || event.data !== '') yield event
    }
  }
}

/** A session at protocol 2025-11-25 (streams there open with a priming event): its request headers. */
async function openSession(url: URL): Promise<Record<string, string>> {
  const init = initialize()
  const opened = await post(url, { ...init, params: { ...init.params, protocolVersion: '2025-11-25' } })
  const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202)
  return headers
}

const resume = (url: URL, headers: Record<string, string>, lastEventId: string) =>
  fetch(url, { headers: { accept: 'text/event-stream', ...headers, 'last-event-id': lastEventId } })

describe('serveMcp over HTTP: resumable streams', () => {
  let serving: McpServing | undefined
  afterEach(async () => {
    release()
    await serving?.close()
    serving = undefined
  })

  it('a call whose stream broke mid-call gets its result on a GET with Last-Event-ID', async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0 })
    const url = serving.url!
    const headers = await openSession(url)
    const broken = new AbortController()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(call(7)),
      signal: broken.signal,
    })
    const priming = (await sseEvents(res.body!).next()).value as SseEvent
    expect(priming).toMatchObject({ data: '', retry: '1000' })
    expect(priming.id).toEqual(expect.any(String))
    broken.abort()
    release()

    // Until the server has seen the old connection go, the stream is still taken (409).
    let resumed = await resume(url, headers, priming.id!)
    for (let tries = 0; resumed.status === 409 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      resumed = await resume(url, headers, priming.id!)
    }
    expect(resumed.status).toBe(200)
    let result: unknown
    for await (const event of sseEvents(resumed.body!)) {
      const message = JSON.parse(event.data) as { id?: number }
      if (message.id === 7) {
        result = message
        break
      }
    }
    expect(result).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'released' }] } })
  })

  it("an unknown event id, or another session's, gets a JSON 400", async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0 })
    const url = serving.url!
    const mine = await openSession(url)
    const theirs = await openSession(url)
    // A header older than the version the session negotiated (the conformance suite's polling
    // scenario sends one) still gets a stream that opens with a priming event.
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...theirs,
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify(call(1)),
    })
    const theirEvent = (await sseEvents(res.body!).next()).value as SseEvent
    expect(theirEvent).toMatchObject({ data: '', id: expect.any(String) })
    for (const lastEventId of ['nonsense', theirEvent.id!]) {
      const refused = await resume(url, mine, lastEventId)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } })
    }
  })

  it('a session keeps its latest events within the caps on count and bytes, and replays one stream', async () => {
    const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } })
    const bytes = Buffer.byteLength(JSON.stringify(message(0)))
    const store = new SessionEventStore(3, 3 * bytes)
    const primed = await store.storeEvent('a', {} as never)
    const ids = [await store.storeEvent('a', message(1)), await store.storeEvent('b', message(2))]
    ids.push(await store.storeEvent('a', message(3)))
    // Four events, a cap of three: the priming event went first.
    expect(await store.getStreamIdForEventId(primed)).toBeUndefined()
    const sent: unknown[] = []
    const send = (_id: string, m: unknown) => Promise.resolve(void sent.push(m))
    expect(await store.replayEventsAfter(ids[0]!, { send })).toBe('a')
    expect(sent).toEqual([message(3)])
    // One larger event: the byte cap evicts the oldest until the rest fit.
    await store.storeEvent('a', { ...message(4), params: { n: 4, pad: 'x'.repeat(bytes) } })
    expect(await store.getStreamIdForEventId(ids[0]!)).toBeUndefined()
    expect(await store.getStreamIdForEventId(ids[1]!)).toBeUndefined()
    await expect(store.replayEventsAfter(ids[0]!, { send })).rejects.toThrow()
  })
})
