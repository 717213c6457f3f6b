import { NestorError, Runtime, defineTool, exec, memoryJournal, type CostBudgetFigures } from '@nestor/core'
import { anthropic, scripted } from '@nestor/providers'
import { scenario } from '../support/anthropic-wire.js'
import { serverPerTest } from '../support/server-per-test.js'
import { startWireServer } from '../support/wire-server.js'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'

// Scripted turns report 10 input and 5 output tokens; at these prices each costs $0.01 + $0.01.
const prices = { 'scripted:m': { input: 1000, output: 2000 } }
const TURN = 0.02
// A reply cap, so a call's estimate is known: 5 tokens at $2000 per million.
const providerOptions = { maxTokens: 5 }
const note = defineTool({ name: 'note', description: 'n', parameters: z.object({}), execute: () => 'noted' })
const figures = (error: unknown): CostBudgetFigures | undefined =>
  NestorError.isInstance(error) ? error.budget : undefined

describe('maxCostUsd and maxTotalCostUsd are checked before each model call', () => {
  it('a budget too small for the first call fails budget_exceeded before any request', async () => {
    const provider = scripted(['never sent'])
    const result = await new Runtime({ provider, model: 'm', prices, providerOptions, maxCostUsd: 0.005 }).exec('go')
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(provider.requests).toHaveLength(0)
    const budget = figures(result.error)
    expect(budget).toMatchObject({ name: 'maxCostUsd', spentUsd: 0, limitUsd: 0.005 })
    // The estimate: at least the reply cap at the output price, and over the limit.
    expect(budget?.estimatedUsd).toBeGreaterThan(0.005)
    expect(budget?.estimatedUsd).toBeGreaterThanOrEqual((5 * 2000) / 1e6)
    expect(result.error?.message).toMatch(/maxCostUsd.*\$0\.000000 spent.*\$0\.005000/)
  })

  it('the exec stops at the call that could pass its limit; what it spent is kept', async () => {
    const provider = scripted([calls({ name: 'note' }), calls({ name: 'note' }), 'never sent'])
    // Input nearly free: each turn costs $0.01001, each estimate just over its reply cap's $0.01.
    const cheapInput = { 'scripted:m': { input: 1, output: 2000 } }
    const turn = (10 * 1 + 5 * 2000) / 1e6
    const runtime = new Runtime({ provider, model: 'm', prices: cheapInput, providerOptions })
    // Two turns fit in $0.025; a third could pass it.
    const result = await runtime.exec('go', { tools: [note], maxCostUsd: 0.025 })
    expect(result.error?.code).toBe('budget_exceeded')
    expect(provider.requests).toHaveLength(2)
    expect(result.usage.cost?.total).toBeCloseTo(2 * turn, 12)
    const budget = figures(result.error)
    expect(budget?.spentUsd).toBeCloseTo(2 * turn, 12)
    expect(budget!.spentUsd + budget!.estimatedUsd).toBeGreaterThan(0.025)
    // Every call the model asked for has its result: the history stays valid.
    expect(result.history.filter((m) => m.role === 'toolResult')).toHaveLength(2)
  })

  it("maxTotalCostUsd counts the whole tree: a nested exec's calls spend the root's budget", async () => {
    const provider = scripted((request) => {
      const last = request.messages.at(-1)
      if (last?.role === 'user' && last.content === 'sub') return 'sub answer'
      return request.messages.some((m) => m.role === 'toolResult') ? 'never sent' : calls({ name: 'delegate' })
    })
    const delegate = defineTool({
      name: 'delegate',
      description: 'd',
      parameters: z.object({}),
      execute: async () => (await exec('sub')).text,
    })
    const runtime = new Runtime({ provider, model: 'm', prices, providerOptions, maxTotalCostUsd: 0.05 })
    const result = await runtime.exec('go', { tools: [delegate] })
    // root turn ($0.02) + child turn ($0.02) = $0.04; the root's next call could pass $0.05.
    expect(provider.requests).toHaveLength(2)
    expect(result.error?.code).toBe('budget_exceeded')
    expect(figures(result.error)).toMatchObject({ name: 'maxTotalCostUsd', limitUsd: 0.05 })
    expect(figures(result.error)?.spentUsd).toBeCloseTo(2 * TURN, 12)
    expect(result.usage.cost?.total).toBeCloseTo(TURN, 12)
    expect(result.totalUsage.cost?.total).toBeCloseTo(2 * TURN, 12)
  })

  describe('with a real SDK against a local server', () => {
    const wire = serverPerTest(startWireServer)

    it('anthropic(): its default reply cap (4096) bounds the estimate; a budget under it sends nothing', async () => {
      wire().enqueue({ body: scenario('text.sse') })
      const provider = anthropic({ apiKey: 'sk-ant-test', baseURL: wire().url, maxRetries: 0 })
      const refused = await new Runtime({ provider, model: 'claude-sonnet-4-5', maxCostUsd: 0.05 }).exec('hi')
      expect(refused.error?.code).toBe('budget_exceeded')
      // 4096 output tokens at $15 per million, plus the input's estimate at $3.
      expect(figures(refused.error)?.estimatedUsd).toBeGreaterThan((4096 * 15) / 1e6)
      expect(wire().requests).toHaveLength(0)
      const paid = await new Runtime({ provider, model: 'claude-sonnet-4-5', maxCostUsd: 0.07 }).exec('hi')
      expect(paid.status).toBe('completed')
      expect(wire().requests).toHaveLength(1)
    })
  })

  it('a model without a price cannot be budgeted: invalid_options before any request', async () => {
    const provider = scripted(['never sent'])
    const result = await new Runtime({ provider, model: 'unpriced', prices, providerOptions, maxTotalCostUsd: 1 }).exec(
      'go',
    )
    expect(result.error?.code).toBe('invalid_options')
    expect(result.error?.message).toMatch(/maxTotalCostUsd.*no price known for scripted:unpriced/)
    expect(provider.requests).toHaveLength(0)
  })

  it('a call whose reply has no known cap cannot be estimated: invalid_options naming maxTokens', async () => {
    const provider = scripted(['never sent'])
    const result = await new Runtime({ provider, model: 'm', prices, maxCostUsd: 1 }).exec('go')
    expect(result.error?.code).toBe('invalid_options')
    expect(result.error?.message).toMatch(/providerOptions\.maxTokens/)
    expect(provider.requests).toHaveLength(0)
  })

  it('a journaled replay counts what was paid live, not a second time and not at new prices', async () => {
    const journal = memoryJournal()
    const live = scripted([calls({ name: 'note' }), 'done'])
    const first = await new Runtime({ provider: live, model: 'm', prices, providerOptions }).exec('go', {
      tools: [note],
      journal,
      runId: 'r1',
    })
    expect(first.totalUsage.cost?.total).toBeCloseTo(2 * TURN, 12)
    // The same run again, with prices ten times higher and a budget the recorded spend fits in.
    const replayer = scripted(['never sent'])
    const again = await new Runtime({
      provider: replayer,
      model: 'm',
      prices: { 'scripted:m': { input: 10_000, output: 20_000 } },
      providerOptions,
      maxTotalCostUsd: 2 * TURN + 0.001,
    }).exec('go', { tools: [note], journal, runId: 'r1' })
    expect(again.status).toBe('completed')
    expect(replayer.requests).toHaveLength(0)
    expect(again.totalUsage.cost).toEqual(first.totalUsage.cost)
  })

  it('bad budgets and prices are invalid_options at construction', () => {
    const bad = (options: Record<string, unknown>) => {
      try {
        new Runtime({ provider: scripted([]), model: 'm', ...options })
      } catch (error) {
        return NestorError.isInstance(error) ? `${error.code}: ${error.message}` : 'other'
      }
      return 'accepted'
    }
    expect(bad({ maxCostUsd: -1 })).toMatch(/^invalid_options: invalid option maxCostUsd/)
    expect(bad({ maxTotalCostUsd: Number.NaN })).toMatch(/^invalid_options: invalid option maxTotalCostUsd/)
    expect(bad({ prices: { 'scripted:m': { input: -1, output: 1 } } })).toMatch(/prices\['scripted:m'\]\.input/)
    expect(bad({ prices: { 'scripted:m': { input: '3', output: 1 } } })).toMatch(/prices\['scripted:m'\]\.input/)
    expect(bad({ prices: { 'scripted:m': { input: 3 } } })).toMatch(/prices\['scripted:m'\]\.output/)
    expect(bad({ prices: { 'scripted:m': { input: 3, output: Infinity } } })).toMatch(/\.output/)
    expect(bad({ prices: { 'scripted:m': { input: 3, output: 1, cacheRead: -0.1 } } })).toMatch(/\.cacheRead/)
    expect(bad({ prices: { 'scripted:m': { input: 3, output: 1, tiers: [{ input: 1, output: 1 }] } } })).toMatch(
      /tiers\[0\]\.above/,
    )
    expect(bad({ prices: { m: { input: 3, output: 1 } } })).toMatch(/provider:model/)
    expect(bad({ prices: { 'scripted:m': { input: 3, output: 1, reasoning: 2 } } })).toMatch(/\.reasoning/)
    expect(bad({ prices: { 'scripted:m': { input: 3, output: 1 } }, maxCostUsd: 0.5 })).toBe('accepted')
  })
})
