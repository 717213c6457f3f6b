import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { historyProblems } from '../support/run.js'
import { page, startWindowedServer, windowedProvider, type WindowedServer } from '../support/windowed-openai.js'

// Input is free and every reply is capped at the 12 tokens the server reports: each call, the
// summarizer's included, is estimated at and costs exactly one CALL.
const prices = { 'openai:gpt-4o-mini': { input: 0, output: 1000 } }
const CALL = (12 * 1000) / 1e6
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the source',
  parameters: z.object({ n: z.number().int() }),
  execute: ({ n }) => page(n, 2000),
})

let server: WindowedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function run(maxTotalCostUsd?: number) {
  await server?.close()
  server = await startWindowedServer({ limit: 6000, pages: 40, pageChars: 2000 })
  const runtime = new Runtime({
    provider: windowedProvider(server),
    model: 'gpt-4o-mini',
    prices,
    providerOptions: { maxTokens: 12 },
    maxIterations: 100,
    ...(maxTotalCostUsd !== undefined && { maxTotalCostUsd }),
  })
  // The window given is larger than the server's: only the server's overflow error compacts.
  const exec = runtime.exec('Read every page, then say how many you read.', {
    tools: [readPage],
    context: { maxTokens: 100_000, reserveTokens: 500, strategy: 'summarize' },
  })
  const events: AgentEvent[] = []
  for await (const event of exec) events.push(event)
  return { result: await exec, events, requests: server.bodies.length }
}

describe('the turn retried after an overflow is a model call like any other', () => {
  it('maxTotalCostUsd refuses the retry when the compaction spent what it had left', async () => {
    // Unbounded, to learn how many of the root's calls were paid before the server first refused.
    const free = await run()
    expect(free.result.status).toBe('completed')
    const firstCompaction = free.events.findIndex((e) => e.type === 'context_compacted')
    expect(firstCompaction).toBeGreaterThan(0)
    const paid = free.events
      .slice(0, firstCompaction)
      .filter((e) => e.type === 'turn_end' && e.depth === 0 && e.message.stopReason !== 'error').length

    // Enough for the refused call and the summary, not for the retry after them.
    const limit = (paid + 1.5) * CALL
    const { result, events, requests } = await run(limit)
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    const budget = NestorError.isInstance(result.error) ? result.error.budget : undefined
    expect(budget?.name).toBe('maxTotalCostUsd')
    expect(budget?.spentUsd).toBeCloseTo((paid + 1) * CALL, 9)
    // The root's paid calls, the overflowing one and the summary: the retry was never sent.
    expect(requests).toBe(paid + 2)
    expect(events.filter((e) => e.type === 'context_compacted')).toHaveLength(1)
    expect(result.totalUsage.cost?.total).toBeLessThanOrEqual(limit)
    expect(historyProblems(result.history)).toEqual([])
  })
})
