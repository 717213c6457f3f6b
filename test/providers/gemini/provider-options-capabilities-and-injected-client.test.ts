import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GoogleGenerativeAI } from '@google/generative-ai'
import { gemini, modelInfo } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, final, request, scenario, type Body } from '../../support/gemini-wire.js'

describe('gemini() options', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it("reports capabilities: tools always, thinking from 2.5 on, the catalogue's window (1M where it has none)", async () => {
    const provider = gemini({ apiKey: 'k' })
    expect(await provider.capabilities!('gemini-2.0-flash')).toEqual({
      tools: true,
      thinking: false,
      contextWindow: (await modelInfo('gemini', 'gemini-2.0-flash')).contextWindow,
    })
    expect(await provider.capabilities!('gemini-2.5-pro')).toEqual({
      tools: true,
      thinking: true,
      contextWindow: 1_048_576,
    })
    expect(await provider.capabilities!('gemini-3-flash-preview')).toMatchObject({ thinking: true })
  })

  it('maps request options onto generationConfig', async () => {
    server.enqueue({ body: scenario('text.three-chunks.sse') })
    await collect(
      gemini({ apiKey: 'k-123456', baseURL: server.url }).stream(
        request({
          options: {
            maxTokens: 256,
            temperature: 0.2,
            includeThoughts: true,
            thinkingBudget: 1024,
            generationConfig: { responseModalities: ['TEXT'] },
          },
        }),
      ),
    )
    const body = server.requests.at(-1)!.json as Body
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 256,
      temperature: 0.2,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
      responseModalities: ['TEXT'],
    })
  })

  it('accepts a baseURL with a trailing slash and uses the model in the path', async () => {
    server.enqueue({ body: scenario('text.three-chunks.sse') })
    const events = await collect(
      gemini({ apiKey: 'k-123456', baseURL: `${server.url}/` }).stream(request({ model: 'gemini-2.0-flash' })),
    )
    expect(final(events).type).toBe('done')
    expect(server.requests.at(-1)!.url).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse')
  })

  it('fails with an error result, not a throw, when no key is configured', async () => {
    const saved = { gemini: process.env.GEMINI_API_KEY, google: process.env.GOOGLE_API_KEY }
    delete process.env.GEMINI_API_KEY
    delete process.env.GOOGLE_API_KEY
    try {
      const before = server.requests.length
      const events = await collect(gemini({ baseURL: server.url }).stream(request({ maxRetries: 2 })))
      const end = final(events)
      expect(end.type).toBe('error')
      expect(end.message.errorMessage).toMatch(/GEMINI_API_KEY/)
      expect(server.requests.length).toBe(before)
    } finally {
      if (saved.gemini !== undefined) process.env.GEMINI_API_KEY = saved.gemini
      if (saved.google !== undefined) process.env.GOOGLE_API_KEY = saved.google
    }
  })

  it('uses an injected GoogleGenerativeAI client and its key', async () => {
    server.enqueue({ body: scenario('text.three-chunks.sse') })
    const client = new GoogleGenerativeAI('injected-key-42')
    const provider = gemini({ client, baseURL: server.url })
    expect(provider.secrets?.()).toEqual(['injected-key-42'])
    const events = await collect(provider.stream(request()))
    expect(final(events).type).toBe('done')
    expect(server.requests.at(-1)!.headers['x-goog-api-key']).toBe('injected-key-42')
  })
})
