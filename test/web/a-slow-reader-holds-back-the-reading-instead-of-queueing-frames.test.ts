import { Runtime, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { pipeToNodeResponse, toSSE } from '@nestor/web'
import { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** A finished run's events, replayed through attach, counting how many the stream pulled. */
async function countedSource(big = false) {
  // The big run streams 8 MB of text in 2 kB deltas: more than any socket buffer holds.
  const runtime = big
    ? new Runtime({ provider: scripted(['x'.repeat(8 << 20)], { chunkSize: 2048 }), model: 'm' })
    : tripRuntime()
  const run = big ? runtime.exec('write a lot') : startTrip(runtime)
  await run
  const attached = runtime.attach(run.execId) as AsyncIterable<AgentEvent> & { execId: string; position: number }
  let pulled = 0
  const source = {
    execId: run.execId,
    [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
      const inner = attached[Symbol.asyncIterator]()
      return {
        next: () => (pulled++, inner.next()),
        return: () => inner.return?.() ?? Promise.resolve({ value: undefined, done: true as const }),
      }
    },
  }
  return { source, total: attached.position, pulled: () => pulled }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('back-pressure', () => {
  it('toSSE reads one event ahead of a reader that stopped reading, however many are available', async () => {
    const { source, total, pulled } = await countedSource()
    const reader = toSSE(source, { heartbeatMs: 0 }).getReader()
    for (let i = 0; i < 5; i++) await reader.read()
    for (let i = 0; i < 5; i++) await tick()
    console.log(`[measure] toSSE: reader took 5 frames, the stream pulled ${pulled()} of ${total} available events`)
    expect(total).toBeGreaterThan(200)
    expect(pulled()).toBeLessThanOrEqual(6)
    await reader.cancel()
  })

  it('pipeToNodeResponse waits for drain: a client that does not read caps what is read from the run', async () => {
    const { source, total, pulled } = await countedSource(true)
    const { url, close } = await serve((_req, res) => void pipeToNodeResponse(source, res, { heartbeatMs: 0 }))
    closers.push(close)
    // A raw socket that sends the request and then never reads: the kernel buffers fill up.
    const socket = new Socket()
    const { port } = new URL(url)
    await new Promise<void>((resolve) => socket.connect(Number(port), '127.0.0.1', resolve))
    socket.pause()
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    let last = -1
    for (let i = 0; i < 100 && pulled() !== last; i++) {
      last = pulled()
      for (let j = 0; j < 5; j++) await tick()
    }
    const stalled = pulled()
    console.log(
      `[measure] pipeToNodeResponse: a client that never reads stalled the reading at ${stalled} of ${total} events`,
    )
    socket.resume()
    socket.destroy()
    expect(total).toBeGreaterThan(4000)
    expect(stalled).toBeLessThan(total / 2)
  })
})
