import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type ContextOptions, type EventOf, type Provider } from '@nestor/core'
import { modelId } from '../support/bedrock-wire.js'
import { historyProblems } from '../support/run.js'
import { cacheMarks, startWindowedAnthropic, windowedAnthropic } from '../support/windowed-anthropic.js'
import { startWindowedBedrock, windowedBedrock } from '../support/windowed-bedrock.js'
import { startWindowedGemini, windowedGemini } from '../support/windowed-gemini.js'
import { startWindowedServer, windowedOllama, windowedProvider } from '../support/windowed-openai.js'
import { startWindowedResponses, windowedResponses } from '../support/windowed-responses.js'
import { page, type WindowLog, type WindowOptions } from '../support/windowed-wire.js'

// Each adapter against a local server speaking its provider's wire protocol that counts the
// tokens of every request and refuses past its window with that provider's own error.
const LIMIT = 6000
const PAGE_CHARS = 2000
const TASK = 'Read every page, then say how many you read.'
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the source',
  parameters: z.object({ n: z.number().int() }),
  execute: ({ n }) => page(n, PAGE_CHARS),
})

type Server = WindowLog & { close(): Promise<void> }
type Adapter = {
  name: string
  model: string
  start(options: WindowOptions): Promise<Server>
  provider(server: Server): Provider
  /** The provider's overflow error as the exec's failure reports it. */
  refusal: RegExp
}

const adapters: Adapter[] = [
  {
    name: 'openai chat completions',
    model: 'gpt-4o-mini',
    start: (o) => startWindowedServer(o),
    provider: (s) => windowedProvider(s as never),
    refusal: /maximum context length is 6000 tokens\. However, your messages resulted in \d+ tokens/,
  },
  {
    name: 'openai responses',
    model: 'gpt-5-mini',
    start: startWindowedResponses,
    provider: (s) => windowedResponses(s as never),
    refusal: /Your input exceeds the context window of this model/,
  },
  {
    name: 'anthropic',
    model: 'claude-sonnet-4-5',
    start: startWindowedAnthropic,
    provider: (s) => windowedAnthropic(s as never),
    refusal: /prompt is too long: \d+ tokens > 6000 maximum/,
  },
  {
    name: 'gemini',
    model: 'gemini-2.5-flash',
    start: startWindowedGemini,
    provider: (s) => windowedGemini(s as never),
    refusal: /The input token count \(\d+\) exceeds the maximum number of tokens allowed \(6000\)/,
  },
  {
    name: 'bedrock',
    model: modelId,
    start: startWindowedBedrock,
    provider: (s) => windowedBedrock(s as never),
    refusal: /ValidationException: Input is too long for requested model/,
  },
]

let server: Server | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function run(
  adapter: Pick<Adapter, 'start' | 'provider' | 'model'>,
  pages: number,
  limit: number,
  options: { context?: ContextOptions; system?: string },
  provider?: (s: Server) => Provider,
) {
  server = await adapter.start({ limit, pages })
  const make = provider ?? adapter.provider
  const runtime = new Runtime({ provider: make(server), model: adapter.model, maxIterations: 400 })
  const events: AgentEvent[] = []
  const exec = runtime.exec(TASK, { tools: [readPage], ...options })
  for await (const event of exec) events.push(event)
  return { result: await exec, events, server }
}

const compactions = (events: AgentEvent[]) =>
  events.filter((e): e is EventOf<'context_compacted'> => e.type === 'context_compacted')

describe.each(adapters)('$name', (adapter) => {
  it("without context, a long run fails with the provider's own overflow error", async () => {
    const { result, server } = await run(adapter, 40, LIMIT, {})
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('provider_error')
    expect(result.error?.message).toMatch(adapter.refusal)
    expect(server.refused).toBe(1)
  })

  it("'truncate' completes a 300-turn run with large tool results: no request refused, none breaks a call from its result", async () => {
    const { result, events, server } = await run(adapter, 300, LIMIT, {
      context: { maxTokens: LIMIT, reserveTokens: 500, strategy: 'truncate' },
    })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Read all 300 pages.')
    expect(result.receipts).toHaveLength(300)
    expect(server.refused).toBe(0)
    expect(server.broken).toEqual([])
    expect(Math.max(...server.counted)).toBeLessThanOrEqual(LIMIT)
    expect(compactions(events).length).toBeGreaterThan(5)
    expect(result.history[0]).toEqual({ role: 'user', content: TASK })
    expect(historyProblems(result.history)).toEqual([])
  })

  it("'summarize' completes a long run on the model's own summaries, none refused or broken", async () => {
    const { result, events, server } = await run(adapter, 40, LIMIT, {
      context: { maxTokens: LIMIT, reserveTokens: 500 },
    })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Read all 40 pages.')
    expect(server.refused).toBe(0)
    expect(server.broken).toEqual([])
    const done = compactions(events)
    expect(done.length).toBeGreaterThan(0)
    expect(done.every((c) => c.strategy === 'summarize')).toBe(true)
    expect(JSON.stringify(result.history)).toMatch(/Pages read so far: 1, 2, 3/)
    expect(historyProblems(result.history)).toEqual([])
  })

  it("the provider's overflow error is recognized: the turn is compacted once and retried", async () => {
    // The window given is larger than the server's: only the provider's error tells the loop.
    const { result, events, server } = await run(adapter, 40, LIMIT, {
      context: { maxTokens: 100_000, reserveTokens: 500, strategy: 'truncate' },
    })
    expect(result.status).toBe('completed')
    expect(server.refused).toBeGreaterThan(0)
    const done = compactions(events)
    expect(done.length).toBe(server.refused)
    expect(done.every((c) => c.reason === 'overflow')).toBe(true)
    expect(server.broken).toEqual([])
    expect(historyProblems(result.history)).toEqual([])
  })
})

describe('anthropic with cacheControl', () => {
  it('after a compaction the breakpoints are recomputed: on the system prompt and the compacted history’s last messages', async () => {
    const anthropic = adapters.find((a) => a.name === 'anthropic')!
    const { result, server } = await run(
      anthropic,
      60,
      LIMIT,
      {
        system: 'You are a careful researcher.',
        context: { maxTokens: LIMIT, reserveTokens: 500, strategy: 'truncate' },
      },
      (s) => windowedAnthropic(s as never, true),
    )
    expect(result.status).toBe('completed')
    const bodies = server.bodies as { messages: unknown[] }[]
    const compacted = bodies.filter((b, i) => i > 0 && b.messages.length < bodies[i - 1]!.messages.length)
    expect(compacted.length).toBeGreaterThan(1)
    for (const body of compacted) {
      const n = body.messages.length
      expect(cacheMarks(body)).toEqual(['system', n - 2, n - 1])
    }
  })
})

describe('openai-compatible on Ollama (no error past its window: it truncates silently)', () => {
  const ollama = {
    model: 'llama3.1',
    start: (o: WindowOptions) => startWindowedServer({ ...o, refuses: false }),
    provider: (s: Server) => windowedOllama(s as never),
  }
  const WINDOW = 8192

  it('without context the requests grow past the window /api/show reports', async () => {
    const { result, server } = await run(ollama, 40, WINDOW, {})
    expect(result.status).toBe('completed')
    expect(Math.max(...server.counted)).toBeGreaterThan(WINDOW)
  })

  it("'truncate' with no maxTokens takes the window from /api/show and keeps all 300 turns' requests under it", async () => {
    const { result, events, server } = await run(ollama, 300, WINDOW, { context: { strategy: 'truncate' } })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Read all 300 pages.')
    expect(Math.max(...server.counted)).toBeLessThanOrEqual(WINDOW)
    expect(server.broken).toEqual([])
    expect(compactions(events).length).toBeGreaterThan(5)
    expect(historyProblems(result.history)).toEqual([])
  })

  it("'summarize' with no maxTokens keeps every request under the reported window", async () => {
    const { result, events, server } = await run(ollama, 40, WINDOW, { context: {} })
    expect(result.status).toBe('completed')
    expect(Math.max(...server.counted)).toBeLessThanOrEqual(WINDOW)
    expect(server.broken).toEqual([])
    expect(compactions(events).every((c) => c.strategy === 'summarize')).toBe(true)
    expect(compactions(events).length).toBeGreaterThan(0)
  })
})
