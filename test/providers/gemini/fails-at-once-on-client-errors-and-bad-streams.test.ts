import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gemini } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { assistantText, collect, final, geminiSse, googleError, request } from '../../support/gemini-wire.js'

describe('Gemini fails at once, as an error result, on what a retry cannot fix', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  const stream = () =>
    collect(
      gemini({ apiKey: 'test-key', baseURL: server.url, maxRetries: 3 }).stream({
        ...request(),
        maxRetries: undefined as unknown as number,
      }),
    )

  it('gives provider_error status 400 after one request for INVALID_ARGUMENT', async () => {
    const before = server.requests.length
    server.enqueue(
      googleError(400, 'INVALID_ARGUMENT', 'Function call is missing a thought_signature in functionCall parts.'),
    )
    const events = await stream()
    expect(server.requests.length - before).toBe(1)
    expect(events.map((e) => e.type)).toEqual(['start', 'error'])
    const end = final(events)
    expect(end.type === 'error' && end.error).toMatchObject({
      code: 'provider_error',
      status: 400,
      retryable: false,
      provider: 'gemini',
    })
    expect(end.message.stopReason).toBe('error')
    expect(end.message.errorMessage).toContain('missing a thought_signature')
  })

  it('does not retry a 403 PERMISSION_DENIED', async () => {
    const before = server.requests.length
    server.enqueue(googleError(403, 'PERMISSION_DENIED', 'Method doesn’t allow unregistered callers.'))
    const end = final(await stream())
    expect(server.requests.length - before).toBe(1)
    expect(end.type === 'error' && end.error).toMatchObject({ status: 403, retryable: false })
  })

  it('turns a malformed data line into an error result, not a crash', async () => {
    const before = server.requests.length
    const good = geminiSse([{ candidates: [{ content: { role: 'model', parts: [{ text: 'Partial ' }] } }] }])
    server.enqueue({ body: `${good}data: {"candidates": [oops\r\n\r\n` })
    const events = await stream()
    expect(server.requests.length - before).toBe(1)
    const end = final(events)
    expect(end.type).toBe('error')
    expect(end.type === 'error' && end.error).toMatchObject({ code: 'provider_error', retryable: false })
    expect(end.message.errorMessage).toMatch(/malformed/)
    expect(assistantText(events)).toBe('Partial ')
  })

  it('ends a stream that stops without a finish reason as an error result that keeps the text', async () => {
    server.enqueue({
      body: geminiSse([{ candidates: [{ content: { role: 'model', parts: [{ text: 'Half an ans' }] } }] }]),
    })
    const events = await stream()
    const end = final(events)
    expect(end.type).toBe('error')
    expect(end.message.errorMessage).toMatch(/without a finish reason/)
    expect(assistantText(events)).toBe('Half an ans')
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(0)
  })

  it('reports a blocked prompt (promptFeedback.blockReason) as an error result', async () => {
    server.enqueue({
      body: geminiSse([
        { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } },
      ]),
    })
    const end = final(await stream())
    expect(end.type).toBe('error')
    expect(end.message.errorMessage).toMatch(/blocked the prompt.*SAFETY/)
    expect(end.message.usage.input).toBe(5)
  })

  it('reports MALFORMED_FUNCTION_CALL as an error result', async () => {
    server.enqueue({
      body: geminiSse([
        { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MALFORMED_FUNCTION_CALL' }] },
      ]),
    })
    const end = final(await stream())
    expect(end.type).toBe('error')
    expect(end.message.errorMessage).toMatch(/MALFORMED_FUNCTION_CALL/)
  })
})
