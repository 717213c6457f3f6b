import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { sleep } from '../support/tool-results.js'

/** A tool that records how many of its bodies run at once (real timers). */
function meter(concurrency?: number) {
  let inFlight = 0
  let maxInFlight = 0
  let runs = 0
  const tool = defineTool({
    name: 'slow',
    description: 'Works for a while',
    parameters: z.object({ ms: z.number() }),
    ...(concurrency !== undefined && { concurrency }),
    execute: async ({ ms }) => {
      runs++
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      await sleep(ms)
      inFlight--
      return 'done'
    },
  })
  return { tool, seen: () => ({ runs, maxInFlight }) }
}

async function rejection(run: () => Promise<unknown>): Promise<NestorError> {
  try {
    await run()
  } catch (error) {
    if (NestorError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a rejection')
}

const runtime = () => new Runtime({ provider: scripted([]), model: 'm' })

describe('bounded batches', () => {
  it('rejects a plan over maxLanes naming the key and the count, running nothing', async () => {
    const { tool, seen } = meter()
    const lanes = Array.from({ length: 5 }, (_, i) => ({
      itemKey: `l${i}`,
      calls: [{ callKey: 'c', tool: 'slow', args: { ms: 0 } }],
    }))
    const error = await rejection(() =>
      runtime().runParallelBatch(lanes, { tools: [tool], maxConcurrency: 2, maxLanes: 4 }),
    )
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain('maxLanes')
    expect(error.message).toContain('5 lanes')
    expect(seen().runs).toBe(0)
  })

  it('rejects a plan over maxCalls, counting every lane, and the default bounds hold 5,000 lanes off', async () => {
    const { tool, seen } = meter()
    const calls = Array.from({ length: 3 }, () => ({ tool: 'slow', args: { ms: 0 } }))
    const error = await rejection(() => runtime().runBatch(calls, { tools: [tool], maxCalls: 2 }))
    expect(error.message).toMatch(/3 calls exceed maxCalls 2/)
    const lanes = [0, 1].map((i) => ({
      itemKey: `l${i}`,
      calls: [0, 1].map((j) => ({ callKey: `c${j}`, tool: 'slow', args: { ms: 0 } })),
    }))
    const parallel = await rejection(() =>
      runtime().runParallelBatch(lanes, { tools: [tool], maxConcurrency: 2, maxCalls: 3 }),
    )
    expect(parallel.message).toMatch(/4 calls exceed maxCalls 3/)
    const many = Array.from({ length: 5000 }, (_, i) => ({ itemKey: `l${i}`, calls: [] }))
    const defaulted = await rejection(() => runtime().runParallelBatch(many, { tools: [tool], maxConcurrency: 1 }))
    expect(defaulted.message).toMatch(/5000 lanes exceed maxLanes 256/)
    expect(seen().runs).toBe(0)
  })

  it('rejects a bound that is not a positive integer', async () => {
    const { tool } = meter()
    const error = await rejection(() => runtime().runBatch([], { tools: [tool], maxCalls: 0 }))
    expect(error.message).toContain('maxCalls')
  })
})

describe('per-tool concurrency', () => {
  it('lets at most N bodies of a tool run at once across parallel batches of one runtime', async () => {
    const { tool, seen } = meter(2)
    const rt = runtime()
    const lanes = (prefix: string) =>
      Array.from({ length: 4 }, (_, i) => ({
        itemKey: `${prefix}${i}`,
        calls: [{ callKey: 'c', tool: 'slow', args: { ms: 20 } }],
      }))
    const [a, b] = await Promise.all([
      rt.runParallelBatch(lanes('a'), { tools: [tool], maxConcurrency: 4 }),
      rt.runParallelBatch(lanes('b'), { tools: [tool], maxConcurrency: 4 }),
    ])
    expect(seen()).toEqual({ runs: 8, maxInFlight: 2 })
    expect([...a.receipts, ...b.receipts].every((r) => r.status === 'ok')).toBe(true)
  })

  it('holds across execs running at once and a batch beside them, all on one runtime', async () => {
    const { tool, seen } = meter(2)
    // Each exec's model asks for three calls at once, run in parallel.
    const threeCalls = {
      content: [1, 2, 3].map((n) => ({
        type: 'toolCall' as const,
        id: `c${n}`,
        name: 'slow',
        arguments: { ms: 15 + n },
      })),
    }
    const provider = scripted((request) =>
      request.messages.some((m) => m.role === 'toolResult') ? 'done' : threeCalls,
    )
    const rt = new Runtime({ provider, model: 'm', toolExecution: 'parallel' })
    const lanes = Array.from({ length: 3 }, (_, i) => ({
      itemKey: `l${i}`,
      calls: [{ callKey: 'c', tool: 'slow', args: { ms: 20 } }],
    }))
    const [x, y, batch] = await Promise.all([
      rt.exec('x', { tools: [tool] }),
      rt.exec('y', { tools: [tool] }),
      rt.runParallelBatch(lanes, { tools: [tool], maxConcurrency: 3 }),
    ])
    expect([x.status, y.status]).toEqual(['completed', 'completed'])
    expect([...x.receipts, ...y.receipts, ...batch.receipts].every((r) => r.status === 'ok')).toBe(true)
    expect(seen()).toEqual({ runs: 9, maxInFlight: 2 })
  })

  it('without a limit the same plans run wider, so the limit is what held them', async () => {
    const { tool, seen } = meter()
    const rt = runtime()
    const lanes = Array.from({ length: 4 }, (_, i) => ({
      itemKey: `l${i}`,
      calls: [{ callKey: 'c', tool: 'slow', args: { ms: 20 } }],
    }))
    await rt.runParallelBatch(lanes, { tools: [tool], maxConcurrency: 4 })
    expect(seen().maxInFlight).toBe(4)
  })

  it('a call waiting for a slot ends aborted when its signal aborts, and never runs', async () => {
    const { tool, seen } = meter(1)
    const rt = runtime()
    const first = rt.runBatch([{ tool: 'slow', args: { ms: 60 } }], { tools: [tool] })
    await sleep(5)
    const controller = new AbortController()
    const second = rt.runBatch([{ tool: 'slow', args: { ms: 0 } }], { tools: [tool], signal: controller.signal })
    await sleep(5)
    controller.abort()
    const waited = await second
    await first
    expect(waited.receipts[0]?.status).not.toBe('ok')
    expect(seen().runs).toBe(1)
  })

  it('rejects a concurrency that is not a positive integer at definition', () => {
    expect(() =>
      defineTool({ name: 't', description: 'd', parameters: z.object({}), concurrency: 0, execute: () => 1 }),
    ).toThrow(/concurrency of tool t/)
  })
})
