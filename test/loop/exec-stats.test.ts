import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

const lookup = defineTool({
  name: 'lookup',
  description: 'Look up',
  parameters: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
})
const boom = defineTool({
  name: 'boom',
  description: 'Throws',
  parameters: z.object({}),
  execute: () => Promise.reject(new Error('boom')),
})
const slow = defineTool({
  name: 'slow',
  description: 'Hangs until its timeout aborts it',
  parameters: z.object({}),
  timeoutMs: 20,
  execute: () => new Promise<never>(() => {}),
})
const look = (q: unknown) => ({ name: 'lookup', args: { q } })

/** Every receipt counted once: the totals the stats give back. */
const totals = (result: ExecResult) =>
  Object.values(result.stats.tools).reduce((sum, t) => sum + t.calls, 0) === result.receipts.length

describe('result.stats', () => {
  it('counts calls and results per tool, errors by kind, and the longest same-tool streak across turns', async () => {
    const provider = scripted([
      calls(look('a'), look('b'), look('c')),
      calls({ name: 'boom' }, { name: 'nope' }, { name: 'slow' }, look(5)),
      calls(look('d'), look('e'), look('f'), look('g')),
      'done',
    ])
    const runtime = new Runtime({ provider, model: 'm', breakerThreshold: Infinity })
    const result = await runtime.exec('go', { tools: [lookup, boom, slow] })
    expect(result.status).toBe('completed')
    expect(result.receipts.map((r) => r.status)).toEqual([
      'ok',
      'ok',
      'ok',
      'tool_error',
      'unknown_tool',
      'timeout',
      'invalid_arguments',
      'ok',
      'ok',
      'ok',
      'ok',
    ])
    expect(result.stats.tools).toEqual({
      lookup: { calls: 8, results: 7 },
      boom: { calls: 1, results: 0 },
      nope: { calls: 1, results: 0 },
      slow: { calls: 1, results: 0 },
    })
    // schema = invalid_arguments, timeout = timeout, execution = tool_error; an unknown tool is none of them.
    expect(result.stats.errors).toEqual({ schema: 1, timeout: 1, execution: 1 })
    // The failed lookup closing turn 2 and the four of turn 3 are five consecutive lookup calls.
    expect(result.stats.longestStreak).toEqual({ tool: 'lookup', calls: 5 })
    expect(totals(result)).toBe(true)
  })

  it('counts the streak in call order, not in the order parallel calls finish', async () => {
    let lookups = 0
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const counted = defineTool({
      name: 'lookup',
      description: 'Look up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => {
        if (++lookups === 2) release()
        return q
      },
    })
    // Waits for both lookups: it finishes after them though the model called it first.
    const gate = defineTool({
      name: 'gate',
      description: 'Waits',
      parameters: z.object({ n: z.number() }),
      execute: async () => {
        await released
        return 'open'
      },
    })
    const provider = scripted([
      calls({ name: 'gate', args: { n: 1 } }, look('a'), { name: 'gate', args: { n: 2 } }, look('b')),
      'done',
    ])
    const runtime = new Runtime({ provider, model: 'm', toolExecution: 'parallel' })
    const result = await runtime.exec('go', { tools: [counted, gate] })
    expect(result.status).toBe('completed')
    // Both lookups finished before either gate: in finishing order they would be a streak of two.
    expect(result.stats.longestStreak).toEqual({ tool: 'gate', calls: 1 })
    expect(result.stats.tools).toEqual({ gate: { calls: 2, results: 2 }, lookup: { calls: 2, results: 2 } })
  })

  it('a run without tool calls has empty stats and no streak', async () => {
    const result = await new Runtime({ provider: scripted(['hi']), model: 'm' }).exec('go')
    expect(result.stats).toEqual({ tools: {}, errors: { schema: 0, timeout: 0, execution: 0 }, longestStreak: null })
  })

  it('a tool named __proto__ is counted like any other', async () => {
    const proto = defineTool({
      name: '__proto__',
      description: 'Odd name',
      parameters: z.object({}),
      execute: () => 'x',
    })
    const provider = scripted([calls({ name: '__proto__' }), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [proto] })
    expect(Object.keys(result.stats.tools)).toEqual(['__proto__'])
    expect(result.stats.tools['__proto__']).toEqual({ calls: 1, results: 1 })
  })
})
