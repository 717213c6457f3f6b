import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool, type ToolReceipt } from '@nestor/core'
import { type BatchLane } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { resultText, sleep } from '../support/tool-results.js'

/** Tools that record what ran, and how many bodies were running at once (real timers). */
function workshop() {
  const log: string[] = []
  let inFlight = 0
  let maxInFlight = 0
  let runs = 0
  const work = defineTool({
    name: 'work',
    description: 'Works for a while',
    parameters: z.object({ lane: z.string(), step: z.number(), ms: z.number().int().min(0) }),
    execute: async ({ lane, step, ms }) => {
      runs++
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      log.push(`${lane}:${step}:start`)
      await sleep(ms)
      log.push(`${lane}:${step}:end`)
      inFlight--
      return `${lane}/${step}`
    },
  })
  const fail = defineTool({
    name: 'fail',
    description: 'Always fails',
    parameters: z.object({}),
    execute: () => {
      runs++
      throw new Error('nope')
    },
  })
  const runtime = new Runtime({ provider: scripted([]), model: 'm' })
  return { runtime, tools: [work, fail], log, stats: () => ({ runs, maxInFlight }) }
}

const lane = (itemKey: string, ...steps: number[]): BatchLane => ({
  itemKey,
  calls: steps.map((ms, step) => ({ callKey: `${itemKey}-${step}`, tool: 'work', args: { lane: itemKey, step, ms } })),
})

async function rejection(promise: () => Promise<unknown>): Promise<NestorError> {
  try {
    await promise()
  } catch (error) {
    if (NestorError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected the batch to be rejected')
}

describe('runBatch', () => {
  it('runs the calls in order and returns results with receipts carrying the batchId and each callKey', async () => {
    const { runtime, tools, log } = workshop()
    const batch = await runtime.runBatch(
      [
        { tool: 'work', args: { lane: 'a', step: 0, ms: 20 }, callKey: 'first' },
        { tool: 'work', args: { lane: 'a', step: 1, ms: 0 }, callKey: 'second' },
        { tool: 'work', args: { lane: 'a', step: 2, ms: 5 }, callKey: 'third' },
      ],
      { tools },
    )
    expect(log).toEqual(['a:0:start', 'a:0:end', 'a:1:start', 'a:1:end', 'a:2:start', 'a:2:end'])
    expect(batch.results.map((r) => [r.callKey, resultText(r.result)])).toEqual([
      ['first', 'a/0'],
      ['second', 'a/1'],
      ['third', 'a/2'],
    ])
    expect(batch.receipts).toHaveLength(3)
    for (const [i, receipt] of batch.receipts.entries()) {
      expect(receipt).toMatchObject({
        batchId: batch.batchId,
        callKey: ['first', 'second', 'third'][i],
        status: 'ok',
        attempts: 1,
        toolName: 'work',
      })
    }
  })

  it('runtime listeners see a tool_start and a tool_end for every batch call, the tool_end carrying the keyed receipt', async () => {
    const { runtime, tools } = workshop()
    const starts: string[] = []
    const ends: ToolReceipt[] = []
    runtime.on('tool_start', (e) => starts.push(e.toolCallId))
    runtime.on('tool_end', (e) => ends.push(e.receipt))
    const batch = await runtime.runBatch(
      [
        { tool: 'work', args: { lane: 'a', step: 0, ms: 0 }, callKey: 'k1' },
        { tool: 'fail', args: {}, callKey: 'k2' },
      ],
      { tools },
    )
    expect(ends).toEqual(batch.receipts)
    expect(starts).toEqual(batch.receipts.map((r) => r.toolCallId))
    expect(ends.map((r) => [r.callKey, r.status, r.batchId])).toEqual([
      ['k1', 'ok', batch.batchId],
      ['k2', 'tool_error', batch.batchId],
    ])
  })

  it('with stopOnError the batch stops at the first failing call; without it the rest still run', async () => {
    const plan = [
      { tool: 'work', args: { lane: 'a', step: 0, ms: 0 }, callKey: 'one' },
      { tool: 'fail', args: {}, callKey: 'two' },
      { tool: 'work', args: { lane: 'a', step: 2, ms: 0 }, callKey: 'three' },
    ]
    const stopping = workshop()
    const stopped = await stopping.runtime.runBatch(plan, { tools: stopping.tools, stopOnError: true })
    expect(stopped.results.map((r) => r.callKey)).toEqual(['one', 'two'])
    expect(stopped.receipts.map((r) => r.status)).toEqual(['ok', 'tool_error'])
    expect(stopping.stats().runs).toBe(2)

    const going = workshop()
    const all = await going.runtime.runBatch(plan, { tools: going.tools })
    expect(all.receipts.map((r) => r.status)).toEqual(['ok', 'tool_error', 'ok'])
  })
})

describe('runParallelBatch', () => {
  it('never has more than maxConcurrency tool bodies in flight, and does reach it', async () => {
    const { runtime, tools, stats } = workshop()
    const lanes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k, i) => lane(k, 15 + (i % 3) * 10, 10))
    const batch = await runtime.runParallelBatch(lanes, { maxConcurrency: 3, tools })
    expect(stats().maxInFlight).toBe(3)
    expect(stats().runs).toBe(14)
    expect(batch.receipts.every((r) => r.status === 'ok')).toBe(true)
  })

  it('keeps the calls of a lane serial: each step starts after the previous one ended', async () => {
    const { runtime, tools, log } = workshop()
    await runtime.runParallelBatch([lane('a', 30, 5, 10), lane('b', 5, 30, 5), lane('c', 10, 10, 10)], {
      maxConcurrency: 3,
      tools,
    })
    for (const key of ['a', 'b', 'c']) {
      const own = log.filter((entry) => entry.startsWith(`${key}:`))
      expect(own).toEqual([
        `${key}:0:start`,
        `${key}:0:end`,
        `${key}:1:start`,
        `${key}:1:end`,
        `${key}:2:start`,
        `${key}:2:end`,
      ])
    }
    // The lanes did interleave: concurrency was real.
    expect(log.slice(0, 3).every((entry) => entry.endsWith(':0:start'))).toBe(true)
  })

  it('returns lanes in input order even when they finish in another order, with receipts carrying batchId, itemKey and callKey', async () => {
    const { runtime, tools, log } = workshop()
    const batch = await runtime.runParallelBatch([lane('slow', 80), lane('medium', 40), lane('fast', 5)], {
      maxConcurrency: 3,
      tools,
    })
    expect(log.filter((e) => e.endsWith(':end'))).toEqual(['fast:0:end', 'medium:0:end', 'slow:0:end'])
    expect(batch.lanes.map((l) => l.itemKey)).toEqual(['slow', 'medium', 'fast'])
    expect(batch.lanes.map((l) => resultText(l.results[0]!.result))).toEqual(['slow/0', 'medium/0', 'fast/0'])
    for (const l of batch.lanes) {
      for (const r of l.results)
        expect(r.receipt).toMatchObject({ batchId: batch.batchId, itemKey: l.itemKey, callKey: r.callKey })
    }
    expect(batch.receipts.map((r) => r.itemKey).sort()).toEqual(['fast', 'medium', 'slow'])
  })

  it.each([
    ['a duplicate itemKey', [lane('a', 0), lane('a', 0)], 3, /duplicate itemKey "a"/],
    [
      'an unknown tool',
      [lane('a', 0), { itemKey: 'b', calls: [{ callKey: 'x', tool: 'missing', args: {} }] }],
      3,
      /unknown tool "missing"/,
    ],
    [
      'invalid arguments',
      [
        lane('a', 0),
        { itemKey: 'b', calls: [{ callKey: 'x', tool: 'work', args: { lane: 'b', step: 'zero', ms: 0 } }] },
      ],
      3,
      /invalid arguments for work/,
    ],
    ['maxConcurrency 0', [lane('a', 0)], 0, /maxConcurrency/],
    ['a lane without calls', [lane('a', 0), { itemKey: 'b' } as unknown as BatchLane], 3, /invalid option lanes/],
  ] as [string, BatchLane[], number, RegExp][])(
    'a plan with %s is rejected with invalid_options and runs no call at all',
    async (_name, lanes, maxConcurrency, message) => {
      const { runtime, tools, stats } = workshop()
      const error = await rejection(() => runtime.runParallelBatch(lanes, { maxConcurrency, tools }))
      expect(error.code).toBe('invalid_options')
      expect(error.message).toMatch(message)
      await sleep(20)
      expect(stats().runs).toBe(0)
    },
  )

  it('batch receipts never carry a runtime secret held in the arguments', async () => {
    const { tools } = workshop()
    const runtime = new Runtime({ provider: scripted([]), model: 'm', secrets: ['lane-secret-123'] })
    const batch = await runtime.runParallelBatch([lane('lane-secret-123', 0)], { maxConcurrency: 1, tools })
    expect(batch.receipts[0]!.signature).toContain('[REDACTED]')
    expect(JSON.stringify(batch.receipts)).not.toContain('lane-secret-123')
  })

  it('a runBatch plan with one bad call anywhere runs none of the good ones', async () => {
    const { runtime, tools, stats } = workshop()
    const error = await rejection(() =>
      runtime.runBatch(
        [
          { tool: 'work', args: { lane: 'a', step: 0, ms: 0 } },
          { tool: 'work', args: { lane: 'a' } },
        ],
        { tools },
      ),
    )
    expect(error.code).toBe('invalid_options')
    expect(stats().runs).toBe(0)
  })
})
