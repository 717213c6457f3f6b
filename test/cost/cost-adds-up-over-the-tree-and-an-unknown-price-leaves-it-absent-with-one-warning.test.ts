import { Runtime, defineTool, exec, type AgentEvent, type Provider } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'

// Scripted turns report 10 input and 5 output tokens: $0.02 a turn at these prices.
const prices = { 'scripted:m': { input: 1000, output: 2000 } }
const TURN = 0.02

const sub = (input: string) =>
  defineTool({
    name: 'delegate',
    description: 'd',
    parameters: z.object({}),
    execute: async () => (await exec(input)).text,
  })
/** Root: calls `delegate` once, then answers; a nested exec (its input 'sub') answers at once. */
const tree = (name?: string) =>
  scripted(
    (request) => {
      const last = request.messages.at(-1)
      if (last?.role === 'user' && last.content === 'sub') return 'sub answer'
      return request.messages.some((m) => m.role === 'toolResult') ? 'done' : calls({ name: 'delegate' })
    },
    name === undefined ? {} : { name },
  )

describe('usage.cost', () => {
  let warnings: string[]
  const onWarning = (warning: Error & { code?: string }) => {
    if (warning.code === 'NESTOR_UNKNOWN_PRICE') warnings.push(warning.message)
  }
  beforeEach(() => {
    warnings = []
    process.on('warning', onWarning)
  })
  afterEach(() => {
    process.off('warning', onWarning)
  })

  it('is on each assistant message and its events; result.usage is the exec, totalUsage the whole tree', async () => {
    const events: AgentEvent[] = []
    const runtime = new Runtime({ provider: tree(), model: 'm', prices })
    const run = runtime.exec('go', { tools: [sub('sub')] })
    for await (const event of run) events.push(event)
    const result = await run
    expect(result.status).toBe('completed')
    for (const message of result.history)
      if (message.role === 'assistant') expect(message.usage.cost?.total).toBeCloseTo(TURN, 12)
    // message_end and turn_end carry the priced message, nested execs' included.
    const ends = events.filter((e) => e.type === 'message_end' && e.message.role === 'assistant')
    expect(ends).toHaveLength(3)
    for (const e of ends)
      expect(e.type === 'message_end' && e.message.role === 'assistant' && e.message.usage.cost).toBeTruthy()
    expect(result.usage.cost?.total).toBeCloseTo(2 * TURN, 12)
    expect(result.totalUsage.cost?.total).toBeCloseTo(3 * TURN, 12)
    expect(result.totalUsage.cost?.input).toBeCloseTo(3 * 0.01, 12)
  })

  it('an unknown price leaves cost absent, with one warning for the model however many turns', async () => {
    const inner = scripted([calls({ name: 'note' }), calls({ name: 'note' }), 'done'], { name: 'lab' })
    // A provider with no catalogue and no offline mark: a real one the app forgot to price.
    const provider: Provider = { name: 'lab', stream: (request, signal) => inner.stream(request, signal) }
    const note = defineTool({ name: 'note', description: 'n', parameters: z.object({}), execute: () => 'ok' })
    const result = await new Runtime({ provider, model: 'mystery' }).exec('go', { tools: [note] })
    expect(result.status).toBe('completed')
    for (const message of result.history) if (message.role === 'assistant') expect(message.usage.cost).toBeUndefined()
    expect(result.usage.cost).toBeUndefined()
    expect(result.usage.total).toBeGreaterThan(0)
    await new Promise((resolve) => setImmediate(resolve))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/lab:mystery/)
  })

  it('a tree total is absent when one part is unpriced: it is never a partial sum that looks whole', async () => {
    // The root is priced, the nested exec runs another model nobody priced.
    const provider = tree()
    const runtime = new Runtime({ provider, model: 'm', prices })
    const priced = defineTool({
      name: 'delegate',
      description: 'd',
      parameters: z.object({}),
      execute: async () => (await exec('sub', { model: 'unpriced' })).text,
    })
    const result = await runtime.exec('go', { tools: [priced] })
    expect(result.usage.cost?.total).toBeCloseTo(2 * TURN, 12)
    expect(result.totalUsage.total).toBeGreaterThan(result.usage.total)
    expect(result.totalUsage.cost).toBeUndefined()
  })

  it('totalUsage includes the summarizer execs of context compaction, priced like any turn', async () => {
    // Reads pages until the window forces a summary; the summarizer (a nested exec) answers too.
    const provider = scripted((request) => {
      if (request.system?.startsWith('You write the working memory')) return 'Pages read so far: several.'
      const reads = Number(/page (\d+):/.exec(JSON.stringify(request.messages.slice(-1)))?.[1] ?? 0)
      if (reads >= 8) return 'Read them all.'
      // Reporting no input makes the window go by its own estimate of the growing history.
      return { ...calls({ name: 'read', args: { n: reads + 1 } }), usage: { input: 0, output: 5 } }
    })
    const read = defineTool({
      name: 'read',
      description: 'Reads a page',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => `page ${n}: ${'text '.repeat(400)}`,
    })
    const events: AgentEvent[] = []
    const run = new Runtime({ provider, model: 'm', prices, maxIterations: 20 }).exec('Read the pages.', {
      tools: [read],
      context: { maxTokens: 2500, reserveTokens: 300, strategy: 'summarize' },
    })
    for await (const event of run) events.push(event)
    const result = await run
    expect(result.error?.message ?? result.status).toBe('completed')
    const turnCost = (depth: number) =>
      events
        .filter((e) => e.type === 'turn_end' && e.depth === depth)
        .map((e) => (e.type === 'turn_end' ? e.message.usage.cost!.total : 0))
    expect(turnCost(1).length).toBeGreaterThan(0)
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
    expect(result.usage.cost?.total).toBeCloseTo(sum(turnCost(0)), 12)
    expect(result.totalUsage.cost?.total).toBeCloseTo(sum(turnCost(0)) + sum(turnCost(1)), 12)
    expect(sum(turnCost(1))).toBeCloseTo(turnCost(1).length * TURN, 12)
  })

  it("the app's prices win over the catalogue and add models it lacks", async () => {
    const result = await new Runtime({
      provider: scripted(['hi']),
      model: 'm',
      prices: { 'scripted:m': { input: 0, output: 0 } },
    }).exec('go')
    expect(result.usage.cost).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 })
  })
})
