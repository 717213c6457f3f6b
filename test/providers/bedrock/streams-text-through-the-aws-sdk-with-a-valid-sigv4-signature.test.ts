import { describe, expect, it } from 'vitest'
import {
  collect,
  modelId,
  provider,
  signatureIsValid,
  streamResponse,
  text,
  useBedrockWire,
} from '../../support/bedrock-wire.js'

describe('bedrock: a text answer over ConverseStream', () => {
  const wire = useBedrockWire()

  it('signs the request with SigV4, posts to converse-stream and streams the deltas with usage', async () => {
    wire.server.enqueue(streamResponse(text('Bonjour', ', le monde', ' 🦜')))
    const { events, last } = await collect(
      provider(wire.server).stream({
        model: modelId,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        options: { maxTokens: 256, temperature: 0.2 },
      }),
    )

    const [captured] = wire.server.requests
    expect(captured?.method).toBe('POST')
    expect(captured?.url).toBe(`/model/${encodeURIComponent(modelId)}/converse-stream`)
    expect(captured?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDNESTORFAKE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/,
    )
    expect(await signatureIsValid(captured!, wire.server.port)).toBe(true)
    expect(captured?.json).toEqual({
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      system: [{ text: 'Be brief.' }],
      inferenceConfig: { maxTokens: 256, temperature: 0.2 },
    })

    expect(events.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta)).toEqual([
      'Bonjour',
      ', le monde',
      ' 🦜',
    ])
    expect(last.type).toBe('done')
    expect(last.message).toMatchObject({
      provider: 'bedrock',
      model: modelId,
      stopReason: 'stop',
      content: [{ type: 'text', text: 'Bonjour, le monde 🦜' }],
      usage: { input: 12, output: 5, cacheRead: 20, cacheWrite: 10, total: 47 },
    })
  })

  it('a tampered signature is detected by the same check (the check can fail)', async () => {
    wire.server.enqueue(streamResponse(text('ok')))
    await collect(
      provider(wire.server).stream({ model: modelId, messages: [{ role: 'user', content: 'hi' }], tools: [] }),
    )
    const captured = wire.server.requests[0]!
    const tampered = { ...captured, body: captured.body.replace('hi', 'ho') }
    expect(await signatureIsValid(tampered, wire.server.port)).toBe(false)
  })
})
