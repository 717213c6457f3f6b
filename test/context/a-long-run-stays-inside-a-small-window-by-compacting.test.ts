import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, memoryJournal, type AgentEvent, type EventOf } from '@nestor/core'
import { historyProblems } from '../support/run.js'
import {
  SUMMARIZER_MARK,
  page,
  startWindowedServer,
  windowedProvider,
  type WindowedServer,
} from '../support/windowed-openai.js'

const LIMIT = 6000
const PAGE_CHARS = 2000
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the source',
  parameters: z.object({ n: z.number().int() }),
  execute: ({ n }) => page(n, PAGE_CHARS),
})

let server: WindowedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function run(pages: number, context: Parameters<Runtime['exec']>[1] extends infer O ? O : never) {
  server = await startWindowedServer({ limit: LIMIT, pages, pageChars: PAGE_CHARS })
  const runtime = new Runtime({ provider: windowedProvider(server), model: 'gpt-4o-mini', maxIterations: 400 })
  const events: AgentEvent[] = []
  const exec = runtime.exec('Read every page, then say how many you read.', { tools: [readPage], ...context })
  for await (const event of exec) events.push(event)
  return { result: await exec, events, server }
}

const compactions = (events: AgentEvent[]) =>
  events.filter((e): e is EventOf<'context_compacted'> => e.type === 'context_compacted')

describe('context management', () => {
  it("without context, a long run fails with the provider's own overflow error, as before", async () => {
    const { result, server } = await run(40, {})
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('provider_error')
    expect(result.error?.message).toMatch(/maximum context length is 6000 tokens/)
    expect(server.refused).toBe(1)
    expect(historyProblems(result.history)).toEqual([])
  })

  it("'truncate' keeps a 300-turn run under the window: no request is refused and none breaks a call from its result", async () => {
    const { result, events, server } = await run(300, {
      context: { maxTokens: LIMIT, reserveTokens: 500, strategy: 'truncate' },
    })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Read all 300 pages.')
    expect(server.refused).toBe(0)
    expect(server.broken).toEqual([])
    expect(Math.max(...server.counted)).toBeLessThanOrEqual(LIMIT)
    const done = compactions(events)
    expect(done.length).toBeGreaterThan(5)
    for (const c of done) {
      expect(c.strategy).toBe('truncate')
      expect(c.reason).toBe('limit')
      expect(c.after.messages).toBeLessThan(c.before.messages)
      expect(c.after.tokens).toBeLessThan(c.before.tokens)
    }
    // The task stays first; what the model last saw is valid and far shorter than the run.
    expect(result.history[0]).toEqual({ role: 'user', content: 'Read every page, then say how many you read.' })
    expect(historyProblems(result.history)).toEqual([])
    expect(result.history.length).toBeLessThan(20)
    expect(result.receipts).toHaveLength(300)
  })

  it("'summarize' (the default) replaces the oldest turns with the model's summary, written in a nested exec whose usage is counted", async () => {
    const { result, events, server } = await run(60, { context: { maxTokens: LIMIT, reserveTokens: 500 } })
    expect(result.status).toBe('completed')
    expect(server.refused).toBe(0)
    expect(server.broken).toEqual([])
    const done = compactions(events)
    expect(done.length).toBeGreaterThan(1)
    expect(done.every((c) => c.strategy === 'summarize')).toBe(true)
    const summaries = server.requests.filter((r) => JSON.stringify(r.json).includes(SUMMARIZER_MARK))
    expect(summaries).toHaveLength(done.length)
    // The summarizer's turns stream one level down, and its usage joins the total.
    const nested = events.filter((e) => e.type === 'turn_start' && e.depth === 1)
    expect(nested).toHaveLength(done.length)
    expect(result.totalUsage.input).toBeGreaterThan(result.usage.input)
    const summary = result.history[1]
    expect(summary?.role).toBe('user')
    expect(JSON.stringify(summary)).toMatch(/A summary of the earlier part of this conversation/)
    // A summary of summaries: every page compacted away so far is still named, none lost.
    const listed =
      JSON.stringify(summary)
        .match(/Pages read so far: ([\d, ]+)/)?.[1]
        ?.split(', ')
        .map(Number) ?? []
    expect(listed.length).toBeGreaterThan(10)
    expect(listed).toEqual(listed.map((_, i) => i + 1))
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a provider overflow error compacts once and retries the turn', async () => {
    // The window set here is larger than the server's: only the server's error tells the loop.
    const { result, events, server } = await run(40, {
      context: { maxTokens: 100_000, reserveTokens: 500, strategy: 'truncate' },
    })
    expect(result.status).toBe('completed')
    expect(server.refused).toBeGreaterThan(0)
    const done = compactions(events)
    expect(done.length).toBe(server.refused)
    expect(done.every((c) => c.reason === 'overflow')).toBe(true)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a request that still overflows after compacting fails context_overflow, saying by how much', async () => {
    server = await startWindowedServer({ limit: LIMIT, pages: 3, pageChars: PAGE_CHARS })
    const runtime = new Runtime({ provider: windowedProvider(server), model: 'gpt-4o-mini' })
    const huge = `Read this first: ${'x'.repeat(LIMIT * 5)}`
    const result = await runtime.exec(huge, { tools: [readPage], context: { strategy: 'truncate' } })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('context_overflow')
    expect(result.error?.message).toMatch(/against a window of 6000 \(\d+ over\)/)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a journaled run that compacted replays without asking the model for the summary again', async () => {
    const journal = memoryJournal()
    const first = await run(30, { context: { maxTokens: LIMIT, reserveTokens: 500 }, journal, runId: 'long-run' })
    expect(first.result.status).toBe('completed')
    const paid = first.server.requests.length
    expect(compactions(first.events).length).toBeGreaterThan(0)
    const again = await run(30, { context: { maxTokens: LIMIT, reserveTokens: 500 }, journal, runId: 'long-run' })
    expect(again.result.status).toBe('completed')
    expect(again.server.requests).toHaveLength(0)
    expect(paid).toBeGreaterThan(30)
    expect(again.result.history).toEqual(first.result.history)
    const replayed = compactions(again.events)
    expect(replayed.length).toBe(compactions(first.events).length)
    expect(replayed.every((c) => c.replayed === true)).toBe(true)
  })
})
