import type { AssistantMessage } from '@nestor/core'
import { openai } from '@nestor/providers'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasSharedWire, readShared, readSharedJson } from '../../support/fixtures.js'
import * as chat from '../wire/openai/chat-scenarios.js'
import * as responses from '../wire/openai/responses-scenarios.js'
import { startSplitServer } from '../../support/split-server.js'
import { collect, request, timeTool, weatherTool } from '../../support/openai-wire.js'

type Transcript = { name: string; api: 'chat' | 'responses'; body: string }

const ours: Transcript[] = [
  { name: 'chat single tool call', api: 'chat', body: chat.singleToolCall() },
  { name: 'chat parallel tool calls', api: 'chat', body: chat.parallelToolCalls() },
  { name: 'chat text with multi-byte characters', api: 'chat', body: chat.text(['Café', ' ☔️ à', ' 東京', ' 🌦️!']) },
  { name: 'chat finish length', api: 'chat', body: chat.finishLength() },
  { name: 'responses reasoning, call and text', api: 'responses', body: responses.reasoningCallAndText() },
  { name: 'responses text', api: 'responses', body: responses.textAnswer('Grüße aus Köln — 晴れ 🌞') },
]
const recorded: Transcript[] = hasSharedWire
  ? readSharedJson<{ fixtures: { file: string; status: number }[] }>('index.json')
      .fixtures.filter((f) => f.status === 200 && /^openai-(chat|responses)\/.*\.sse$/.test(f.file))
      .map(
        (f) =>
          ({
            name: f.file,
            api: f.file.startsWith('openai-chat') ? 'chat' : 'responses',
            body: readShared(f.file),
          }) as Transcript,
      )
  : []

describe('openai: a stream split at any byte boundaries yields the same final message', () => {
  let server: Awaited<ReturnType<typeof startSplitServer>>
  beforeAll(async () => {
    server = await startSplitServer()
  })
  afterAll(() => server.close())

  // The outcome a consumer sees: the final message, and the error text for a failed stream.
  const run = async (
    t: Transcript,
    cuts: number[],
  ): Promise<{ end: string; final: AssistantMessage; error?: string }> => {
    server.serve(t.body, cuts)
    const provider = openai({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', api: t.api, maxRetries: 0 })
    const { final, last } = await collect(provider.stream(request({ tools: [weatherTool, timeTool] })))
    return last.type === 'error' ? { end: last.type, final, error: last.error.message } : { end: last.type, final }
  }

  for (const transcript of [...ours, ...recorded]) {
    it(transcript.name, async () => {
      const whole = await run(transcript, [])
      expect(whole.end).toBe(transcript.name.includes('error-in-stream') ? 'error' : 'done')
      const size = Buffer.byteLength(transcript.body)
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: size - 1 }), { minLength: 1, maxLength: 40 }),
          async (cuts) => {
            expect(await run(transcript, cuts)).toEqual(whole)
          },
        ),
        { numRuns: 15 },
      )
    })
  }
})
