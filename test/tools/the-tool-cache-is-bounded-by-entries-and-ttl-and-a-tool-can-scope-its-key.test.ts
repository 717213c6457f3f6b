import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool, type CacheOptions } from '@nestor/core'
import { TOOL_CACHE_DEFAULTS } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { resultText } from '../support/tool-results.js'

const runtimeFor = () => new Runtime({ provider: scripted([]), model: 'm' })

function counter(cacheable: boolean | CacheOptions<{ q: string }>) {
  const runs = { count: 0 }
  const tool = defineTool({
    name: 'lookup',
    description: 'Look up',
    parameters: z.object({ q: z.string() }),
    cacheable,
    execute: ({ q }) => `${q}#${++runs.count}`,
  })
  return { tool, runs }
}

describe('the cacheable tool cache', () => {
  afterEach(() => vi.useRealTimers())

  it(`holds at most ${TOOL_CACHE_DEFAULTS.maxEntries} entries by default however many distinct calls a runtime serves`, async () => {
    const runtime = runtimeFor()
    const { tool, runs } = counter(true)
    const calls = Array.from({ length: TOOL_CACHE_DEFAULTS.maxEntries + 500 }, (_, i) => ({
      tool: 'lookup',
      args: { q: `k${i}` },
    }))
    // More calls than a batch's default maxCalls: this test is about the cache's bound.
    await runtime.runBatch(calls, { tools: [tool], maxCalls: calls.length })
    expect(runs.count).toBe(TOOL_CACHE_DEFAULTS.maxEntries + 500)
    expect(runtime.cache.size).toBe(TOOL_CACHE_DEFAULTS.maxEntries)
    // The most recent calls are the ones kept: the last call hits, the first runs again.
    const again = await runtime.runBatch(
      [
        { tool: 'lookup', args: { q: 'k1499' } },
        { tool: 'lookup', args: { q: 'k0' } },
      ],
      { tools: [tool] },
    )
    expect(again.receipts.map((r) => r.cached)).toEqual([true, false])
  })

  it('runtime.cache.maxEntries lowers the bound and the least recently used entry goes first', async () => {
    const runtime = runtimeFor()
    runtime.cache.maxEntries = 2
    const { tool } = counter(true)
    const run = (q: string) =>
      runtime.runBatch([{ tool: 'lookup', args: { q } }], { tools: [tool] }).then((b) => b.receipts[0]!.cached)
    expect([await run('a'), await run('b'), await run('a'), await run('c')]).toEqual([false, false, true, false])
    // 'b' was the least recently used when 'c' arrived.
    expect([await run('a'), await run('b')]).toEqual([true, false])
    expect(runtime.cache.size).toBe(2)
  })

  it(`an entry expires after the default TTL (${TOOL_CACHE_DEFAULTS.ttlMs} ms) and the tool runs again`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const runtime = runtimeFor()
    const { tool, runs } = counter(true)
    const call = [{ tool: 'lookup', args: { q: 'x' } }]
    await runtime.runBatch(call, { tools: [tool] })
    vi.setSystemTime(Date.now() + TOOL_CACHE_DEFAULTS.ttlMs - 1000)
    expect((await runtime.runBatch(call, { tools: [tool] })).receipts[0]!.cached).toBe(true)
    vi.setSystemTime(Date.now() + 2000)
    expect((await runtime.runBatch(call, { tools: [tool] })).receipts[0]!.cached).toBe(false)
    expect(runs.count).toBe(2)
  })

  it("a tool's own cacheable.ttlMs wins over the default", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const runtime = runtimeFor()
    const { tool } = counter({ ttlMs: 5000 })
    const call = [{ tool: 'lookup', args: { q: 'x' } }]
    await runtime.runBatch(call, { tools: [tool] })
    vi.setSystemTime(Date.now() + 6000)
    expect((await runtime.runBatch(call, { tools: [tool] })).receipts[0]!.cached).toBe(false)
  })

  it('a scope per user keeps one user from getting the result cached for another', async () => {
    const runtime = runtimeFor()
    const balanceFor = (user: string) =>
      defineTool({
        name: 'balance',
        description: "The signed-in user's balance",
        parameters: z.object({}),
        cacheable: { scope: () => user },
        execute: () => `balance of ${user}`,
      })
    const ask = async (user: string) => {
      const batch = await runtime.runBatch([{ tool: 'balance', args: {} }], { tools: [balanceFor(user)] })
      return { text: resultText(batch.results[0]!.result), cached: batch.receipts[0]!.cached }
    }
    expect(await ask('ada')).toEqual({ text: 'balance of ada', cached: false })
    expect(await ask('bob')).toEqual({ text: 'balance of bob', cached: false })
    expect(await ask('ada')).toEqual({ text: 'balance of ada', cached: true })
  })

  it('a malformed cacheable option fails invalid_options at defineTool', () => {
    for (const cacheable of [{ ttlMs: -1 }, { ttlMs: 'soon' }, { scope: 'user' }, 'yes']) {
      let error: unknown
      try {
        counter(cacheable as never)
      } catch (thrown) {
        error = thrown
      }
      expect(NestorError.isInstance(error) && error.code).toBe('invalid_options')
    }
  })
})
