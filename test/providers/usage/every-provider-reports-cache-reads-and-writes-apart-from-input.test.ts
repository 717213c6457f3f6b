import type { ModelEvent } from '@nestor/core/integration-kit'
import { gemini, openai } from '@nestor/providers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import * as chat from '../wire/openai/chat-scenarios.js'
import * as responses from '../wire/openai/responses-scenarios.js'

const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }
async function finalUsage(stream: AsyncIterable<ModelEvent>) {
  let last: ModelEvent | undefined
  for await (const event of stream) last = event
  return last && (last.type === 'done' || last.type === 'error') ? last.message.usage : undefined
}

// Anthropic (cache-control test) and Bedrock (its text test) assert their cache fields alongside.
describe('usage keeps cached prompt tokens apart from input', () => {
  let server: WireServer
  beforeEach(async () => {
    server = await startWireServer()
  })
  afterEach(() => server.close())

  it('openai chat: prompt_tokens_details.cached_tokens → cacheRead', async () => {
    server.enqueue({ body: chat.singleToolCall() })
    expect(await finalUsage(openai({ apiKey: 'k', baseURL: `${server.url}/v1` }).stream(request))).toEqual({
      input: 16,
      output: 20,
      cacheRead: 64,
      cacheWrite: 0,
      total: 100,
    })
  })

  it('openai responses: cached_tokens → cacheRead, cache_write_tokens → cacheWrite', async () => {
    server.enqueue({
      body: responses.textAnswer().replaceAll('"cached_tokens":100', '"cached_tokens":100,"cache_write_tokens":40'),
    })
    expect(
      await finalUsage(openai({ apiKey: 'k', baseURL: `${server.url}/v1`, api: 'responses' }).stream(request)),
    ).toEqual({ input: 160, output: 7, cacheRead: 100, cacheWrite: 40, total: 307 })
  })

  it('gemini: cachedContentTokenCount → cacheRead', async () => {
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: 1000,
        cachedContentTokenCount: 800,
        candidatesTokenCount: 3,
        totalTokenCount: 1003,
      },
    }
    server.enqueue({ body: `data: ${JSON.stringify(chunk)}\r\n\r\n` })
    expect(await finalUsage(gemini({ apiKey: 'k', baseURL: server.url }).stream(request))).toEqual({
      input: 200,
      output: 3,
      cacheRead: 800,
      cacheWrite: 0,
      total: 1003,
    })
  })
})
