import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { toSSE, toUIMessageStreamResponse, type RunSource } from '@nestor/web'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { parseFrames, readAll } from '../support/trip-web.js'

afterEach(() => {
  vi.useRealTimers()
})

/** A tool whose progress updates hold what JSON cannot: a BigInt, a cycle, a toJSON that throws. */
const odd = defineTool({
  name: 'odd',
  description: 'Reports odd progress',
  parameters: z.object({}),
  execute: (_args, ctx) => {
    const cycle: Record<string, unknown> = { name: 'loop' }
    cycle.self = cycle
    ctx.update({ bytes: 12345678901234567890n })
    ctx.update({ cycle })
    ctx.update({
      broken: {
        toJSON() {
          throw new Error('secret internals')
        },
      },
    })
    return 'done'
  },
})

const oddRun = () =>
  new Runtime({ provider: scripted([calls({ name: 'odd', args: {}, id: 'o1' }), 'finished']), model: 'm' }).exec('go', {
    tools: [odd],
  })

/** A source that yields `good` events, then fails, counting how often it was returned. */
function failing(good: AgentEvent[]): RunSource & { returned: number } {
  const source = {
    execId: 'exec_failing',
    returned: 0,
    [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
      let i = 0
      return {
        next: async () => {
          if (i < good.length) return { value: good[i++] as AgentEvent, done: false }
          throw Object.assign(new Error('the store went away'), { code: 'store_down' })
        },
        return: async () => {
          source.returned++
          return { value: undefined, done: true }
        },
      }
    },
  }
  return source
}

describe('an SSE stream of events JSON cannot hold', () => {
  it('writes every event (a BigInt as its digits, a cycle and a throwing toJSON as markers) and ends with end', async () => {
    const frames = parseFrames(await readAll(toSSE(oddRun(), { heartbeatMs: 0 })))
    const updates = frames.filter((f) => f.event === 'tool_update').map((f) => f.data as string)
    expect(updates).toHaveLength(3)
    expect(JSON.parse(updates[0] as string)).toMatchObject({ update: { bytes: '12345678901234567890' } })
    expect(JSON.parse(updates[1] as string)).toMatchObject({ update: { cycle: { name: 'loop', self: '[Circular]' } } })
    expect(updates[2]).not.toContain('secret internals')
    expect(frames.at(-1)).toMatchObject({ event: 'end' })
    expect(JSON.parse(frames.at(-1)?.data as string)).toMatchObject({ status: 'completed' })
  })

  it('the UI message stream writes them too and ends with [DONE]', async () => {
    const text = await toUIMessageStreamResponse(oddRun(), { heartbeatMs: 0 }).text()
    expect(text.trim().split('\n\n').at(-1)).toBe('data: [DONE]')
  })
})

describe('a stream whose run fails while it is read', () => {
  it('ends with a stream_error frame, returns the iterator once and clears its heartbeat timer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const source = failing([])
    const stream = toSSE(source, { heartbeatMs: 1000 })
    expect(vi.getTimerCount()).toBe(1)
    const frames = parseFrames(await readAll(stream))
    expect(frames.at(-1)).toMatchObject({ event: 'stream_error' })
    expect(JSON.parse(frames.at(-1)?.data as string)).toEqual({ code: 'store_down', message: 'the store went away' })
    expect(source.returned).toBe(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a cancelled reader also returns the iterator and clears the timer, for SSE and the UI stream', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const run = new Runtime({ provider: scripted(['a long answer']), model: 'm' }).exec('go')
    const sse = toSSE(run, { heartbeatMs: 1000 })
    const ui = toUIMessageStreamResponse(run, { heartbeatMs: 1000 }).body as ReadableStream<Uint8Array>
    expect(vi.getTimerCount()).toBe(2)
    for (const stream of [sse, ui]) {
      const reader = stream.getReader()
      await reader.read()
      await reader.cancel()
    }
    expect(vi.getTimerCount()).toBe(0)
    await run
  })
})
