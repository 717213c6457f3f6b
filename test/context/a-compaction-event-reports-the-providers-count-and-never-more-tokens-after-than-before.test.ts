import { afterEach, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type EventOf, type Message } from '@nestor/core'
import { page, startWindowedServer, windowedProvider, type WindowedServer } from '../support/windowed-openai.js'

// An OpenAI-compatible server as many are: a 3,000-token window, OpenAI's overflow error, and no
// usage in its streams. The run starts from supplied history whose assistant message carries a
// usage someone wrote by hand: it measured no request of this exec, so it must not count as one.
const PAGE_CHARS = 1500
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the source',
  parameters: z.object({ n: z.number().int() }),
  execute: ({ n }) => page(n, PAGE_CHARS),
})
const history: Message[] = [
  { role: 'user', content: `Background for the task: ${'the source is a long report. '.repeat(260)}` },
  {
    role: 'assistant',
    content: [{ type: 'text', text: 'Understood.' }],
    stopReason: 'stop',
    usage: { input: 40, output: 5, cacheRead: 0, cacheWrite: 0, total: 45 },
    provider: 'openai',
    model: 'gpt-4o-mini',
  },
]

let server: WindowedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

it('context_compacted says what the provider counted before and fewer tokens after, with no usage reported', async () => {
  server = await startWindowedServer({ limit: 3000, pages: 12, pageChars: PAGE_CHARS, usage: false })
  const runtime = new Runtime({ provider: windowedProvider(server), model: 'gpt-4o-mini', maxIterations: 60 })
  const events: AgentEvent[] = []
  const run = runtime.exec('Read every page, then say how many you read.', {
    tools: [readPage],
    history,
    context: { strategy: 'truncate' },
  })
  for await (const event of run) events.push(event)
  const result = await run
  expect(result.status).toBe('completed')
  const done = events.filter((e): e is EventOf<'context_compacted'> => e.type === 'context_compacted')
  expect(done.length).toBeGreaterThan(0)
  for (const c of done) {
    expect(c.reason).toBe('overflow')
    expect(c.after.tokens).toBeLessThan(c.before.tokens)
    expect(c.after.messages).toBeLessThan(c.before.messages)
  }
  // Each overflow's before is the count the server gave in its error (every refused request's).
  const refusedCounts = server.counted.filter((tokens) => tokens > 3000)
  expect(done.map((c) => c.before.tokens)).toEqual(refusedCounts)
})
