import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { AssistantMessage } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { gemini } from '@nestor/providers'
import { collect, final, request, scenario } from '../../support/gemini-wire.js'
import { startSplitServer } from '../../support/split-server.js'

const transcripts = [
  'text.three-chunks.sse',
  'function-call.single.sse',
  'function-call.parallel-one-chunk.sse',
  'thinking.summary-then-text.sse',
  'text.max-tokens.sse',
  'finish-reason.safety.sse',
  'text.after-function-response.sse',
]

/** Generated tool call ids differ per run; everything else must be identical. */
function normalise(message: AssistantMessage): unknown {
  let n = 0
  return { ...message, content: message.content.map((c) => (c.type === 'toolCall' ? { ...c, id: `id${n++}` } : c)) }
}
const shape = (events: ModelEvent[]) =>
  events.map((e) => (e.type === 'text_delta' || e.type === 'thinking_delta' ? `${e.type}:${e.delta}` : e.type))

describe('a Gemini transcript split at any byte boundaries', () => {
  let server: Awaited<ReturnType<typeof startSplitServer>>
  beforeAll(async () => {
    server = await startSplitServer()
  })
  afterAll(() => server.close())

  const run = async (body: Buffer, cuts: number[]) => {
    server.serve(body, cuts)
    return collect(
      gemini({ apiKey: 'test-key', baseURL: server.url }).stream(request({ model: 'gemini-3-pro-preview' })),
    )
  }

  for (const name of transcripts) {
    it(`gives the same final message and events for ${name}`, async () => {
      // Our scenarios contain multi-byte UTF-8 (—, ü, ✓, °), so cuts also land inside characters.
      const body = Buffer.from(scenario(name), 'utf8')
      const reference = await run(body, [])
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 12 }), async (cuts) => {
          const events = await run(body, cuts)
          expect(normalise(final(events).message)).toEqual(normalise(final(reference).message))
          expect(shape(events)).toEqual(shape(reference))
        }),
        { numRuns: 15 },
      )
    })
  }
})
