import { Socket } from 'node:net'
import { Runtime, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { pipeToNodeResponse, toSSE } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { parseFrames, readAll, serve } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** 20,000 one-character deltas with a replay window of 100. */
function longRun() {
  const runtime = new Runtime({
    provider: scripted(['y'.repeat(20_000)], { chunkSize: 1 }),
    model: 'm',
    retention: { replayWindow: 100 },
  })
  return { runtime, run: runtime.exec('go') }
}

/** How many events the runtime still keeps for a run: the oldest attach position that works. */
function kept(runtime: Runtime, execId: string): number {
  const end = (runtime.attach(execId, { after: 'latest' }) as { position: number }).position
  let after = end
  while (after > 0) {
    try {
      runtime.attach(execId, { after: after - 1 })
      after--
    } catch {
      break
    }
  }
  return end - after
}

describe('what a reader that stops reading keeps alive', () => {
  it('a reader that took 3 frames and stalled holds 100 events, not 20,000, and then gets events_expired', async () => {
    const { runtime, run } = longRun()
    const reader = toSSE(run, { heartbeatMs: 0 }).getReader()
    for (let i = 0; i < 3; i++) await reader.read()
    await run
    const held = kept(runtime, run.execId)
    console.log(`[measure] a stalled SSE reader with replayWindow 100: the run keeps ${held} events after it ended`)
    expect(held).toBe(100)
    const rest = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      },
    })
    const frames = parseFrames(await readAll(rest))
    expect(frames.at(-1)).toMatchObject({ event: 'stream_error' })
    expect(JSON.parse(frames.at(-1)?.data as string)).toMatchObject({ code: 'events_expired' })
  })

  it('a reader that took 3 frames and is cancelled after the run ended holds nothing beyond the window', async () => {
    const { runtime, run } = longRun()
    const reader = toSSE(run, { heartbeatMs: 0 }).getReader()
    for (let i = 0; i < 3; i++) await reader.read()
    await run
    await reader.cancel()
    expect(kept(runtime, run.execId)).toBe(100)
  })
})

describe('pipeToNodeResponse and a client that never reads', () => {
  it('cuts the client off after drainTimeoutMs: the response is destroyed and the run is no longer read', async () => {
    const runtime = new Runtime({ provider: scripted(['x'.repeat(8 << 20)], { chunkSize: 2048 }), model: 'm' })
    const run = runtime.exec('write a lot')
    await run
    const attached = runtime.attach(run.execId) as AsyncIterable<AgentEvent> & { execId: string }
    let returned = false
    const source = {
      execId: run.execId,
      [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
        const inner = attached[Symbol.asyncIterator]()
        return {
          next: () => inner.next(),
          return: () => ((returned = true), inner.return?.() ?? Promise.resolve({ value: undefined, done: true })),
        }
      },
    }
    let piped: Promise<void> | undefined
    let destroyed: () => boolean = () => false
    const { url, close } = await serve((_req, res) => {
      destroyed = () => res.destroyed
      piped = pipeToNodeResponse(source, res, { heartbeatMs: 0, drainTimeoutMs: 200 })
    })
    closers.push(close)
    const socket = new Socket()
    await new Promise<void>((resolve) => socket.connect(Number(new URL(url).port), '127.0.0.1', resolve))
    socket.pause()
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    while (!piped) await new Promise((r) => setTimeout(r, 10))
    await piped
    expect(destroyed()).toBe(true)
    expect(returned).toBe(true)
    socket.destroy()
  })
})
