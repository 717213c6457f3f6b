import { ApprovalGate, runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonPost, parseFrames, serve, startTrip, tripRuntime, type SSEFrame } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** The trip behind the run routes, its approval waiting for a POST. */
async function tripServer() {
  const gate = new ApprovalGate()
  const runtime = tripRuntime({ approve: gate.approve })
  const { url, close } = await serve(
    toNodeListener(
      runRoutes({
        runtime,
        authorize: () => true,
        approvals: gate,
        start: () => startTrip(runtime),
        sse: { heartbeatMs: 0 },
      }),
    ),
  )
  closers.push(close)
  const { execId } = (await (await fetch(`${url}/runs`, jsonPost({ input: 'go' }))).json()) as { execId: string }
  return { url, execId, gate }
}

/** Reads event frames until `stop` says so (or the stream ends), then hangs up. */
async function readFrames(response: Response, stop: (frame: SSEFrame) => boolean = () => false): Promise<SSEFrame[]> {
  const frames: SSEFrame[] = []
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return frames
    buffer += decoder.decode(value, { stream: true })
    const blocks = buffer.split('\n\n')
    buffer = blocks.pop() as string
    for (const frame of parseFrames(blocks.map((b) => `${b}\n\n`).join(''))) {
      frames.push(frame)
      if (stop(frame)) {
        await reader.cancel()
        return frames
      }
    }
  }
}

const ids = (frames: SSEFrame[]) => frames.flatMap((f) => (f.id === undefined ? [] : [f.id]))

describe('resume by Last-Event-ID', () => {
  it('while the run is live: the second connection starts right after the last id the first one saw', async () => {
    const { url, execId, gate } = await tripServer()
    const first = await readFrames(await fetch(`${url}/runs/${execId}/events`), (f) => f.event === 'approval_required')
    const last = Math.max(...ids(first))
    expect(gate.pending(execId)).toHaveLength(1)
    const second = fetch(`${url}/runs/${execId}/events`, { headers: { 'Last-Event-ID': String(last) } })
    gate.decide(execId, 'call_save', { approved: true })
    const rest = await readFrames(await second)
    expect(ids(rest)[0]).toBe(last + 1)
    const all = [...ids(first), ...ids(rest)]
    expect(all).toEqual(all.map((_, i) => i + 1))
    expect(rest.at(-1)?.event).toBe('end')
    const info = (await (await fetch(`${url}/runs/${execId}`)).json()) as { position: number; status: string }
    expect(info).toMatchObject({ position: all.length, status: 'completed' })
  })

  it('after the run ended: ?lastEventId=n replays n+1.. to the end, nothing twice', async () => {
    const { url, execId, gate } = await tripServer()
    const whole = readFrames(await fetch(`${url}/runs/${execId}/events`))
    while (gate.pending(execId).length === 0) await new Promise((r) => setTimeout(r, 10))
    gate.decide(execId, 'call_save', { approved: true })
    const full = ids(await whole)
    const n = Math.floor(full.length / 3)
    const replay = ids(await readFrames(await fetch(`${url}/runs/${execId}/events?lastEventId=${n}`)))
    expect(replay).toEqual(full.slice(n))
  })

  it('answers 400 for a Last-Event-ID that is not a position, 404 for an unknown exec', async () => {
    const { url, execId } = await tripServer()
    const bad = await fetch(`${url}/runs/${execId}/events`, { headers: { 'Last-Event-ID': 'abc' } })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('bad_last_event_id')
    const ahead = await fetch(`${url}/runs/${execId}/events?lastEventId=999999`)
    expect(ahead.status).toBe(400)
    const unknown = await fetch(`${url}/runs/exec_nope/events`)
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found')
  })
})
