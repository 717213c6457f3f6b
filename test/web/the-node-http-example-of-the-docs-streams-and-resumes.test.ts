import { afterEach, describe, expect, it } from 'vitest'
import { minimalServer } from '../../examples/web/minimal-node.js'
import { parseFrames } from '../support/trip-web.js'

let close: () => void = () => {}
afterEach(() => close())

async function start(): Promise<string> {
  const server = minimalServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  close = () => {
    server.closeAllConnections()
    server.close()
  }
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

describe("docs/web.md's node:http backend", () => {
  it('streams a run as SSE on POST /chat, and replays it after a Last-Event-ID on GET /runs/{id}/events', async () => {
    const url = await start()
    const response = await fetch(`${url}/chat`, { method: 'POST', body: 'hi' })
    const execId = response.headers.get('x-exec-id') as string
    const frames = parseFrames(await response.text()).filter((f) => f.id !== undefined)
    const text = frames
      .filter((f) => f.event === 'message_delta')
      .map((f) => (JSON.parse(f.data as string) as { delta: { text: string } }).delta.text)
      .join('')
    expect(text).toBe('Hello from Nestor, streamed over HTTP.')
    const replay = await fetch(`${url}/runs/${execId}/events`, { headers: { 'Last-Event-ID': '3' } })
    const again = parseFrames(await replay.text()).filter((f) => f.id !== undefined)
    expect(again.map((f) => f.id)).toEqual(frames.slice(3).map((f) => f.id))
  })

  it('speaks the UI message stream on POST /ui', async () => {
    const url = await start()
    const response = await fetch(`${url}/ui`, { method: 'POST', body: 'hi' })
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    expect(await response.text()).toContain('"type":"text-delta"')
  })
})
