import { Runtime } from '@nestor/core'
import { anthropic, openaiCompatible } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anthropicAnswer, chatAnswer } from '../../output/answers.js'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { startLocalServer, type LocalServer } from '../../local-models/local-server.js'
import { provider as bedrockProvider, streamResponse, text, useBedrockWire } from '../../support/bedrock-wire.js'

type Body = Record<string, unknown>

describe('think on an Ollama-like server, gated on /api/show capabilities', () => {
  let thinker: LocalServer
  let plain: LocalServer
  let undiscovered: LocalServer
  beforeAll(async () => {
    thinker = await startLocalServer(['completion', 'thinking'])
    plain = await startLocalServer(['completion'])
    undiscovered = await startLocalServer(undefined)
  })
  afterAll(async () => {
    await thinker.close()
    await plain.close()
    await undiscovered.close()
  })

  /** The chat body one exec sent to `server` (undefined if none was sent), and its result. */
  async function run(server: LocalServer, options: { think?: boolean; runtimeThink?: boolean }) {
    server.chat(chatAnswer('ok'))
    const before = server.chatRequests().length
    const runtime = new Runtime({
      provider: openaiCompatible({ baseURL: `${server.url}/v1` }),
      model: 'qwen3:4b',
      ...(options.runtimeThink !== undefined && { think: options.runtimeThink }),
    })
    const result = await runtime.exec('hi', options.think === undefined ? {} : { think: options.think })
    return { result, body: server.chatRequests()[before]?.json as Body | undefined }
  }

  it('think: true on a model that can think sends reasoning_effort, which Ollama reads as think', async () => {
    const { result, body } = await run(thinker, { think: true })
    expect(result.status).toBe('completed')
    expect(body?.reasoning_effort).toBe('medium')
  })

  it("think: false sends reasoning_effort 'none' (think off); no think sends nothing", async () => {
    expect((await run(thinker, { think: false })).body?.reasoning_effort).toBe('none')
    expect((await run(thinker, {})).body).not.toHaveProperty('reasoning_effort')
  })

  it("the exec's think wins over the runtime's", async () => {
    expect((await run(thinker, { runtimeThink: true, think: false })).body?.reasoning_effort).toBe('none')
    expect((await run(thinker, { runtimeThink: true })).body?.reasoning_effort).toBe('medium')
  })

  it('think: true on a model without the thinking capability fails invalid_options naming think, before any request', async () => {
    const before = plain.chatRequests().length
    const runtime = new Runtime({ provider: openaiCompatible({ baseURL: `${plain.url}/v1` }), model: 'llama3.2' })
    const result = await runtime.exec('hi', { think: true })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('invalid_options')
    expect(result.error?.message).toContain('invalid option think')
    expect(plain.chatRequests().length).toBe(before)
  })

  it('think: false on a model that cannot think sends nothing to turn off', async () => {
    const { result, body } = await run(plain, { think: false })
    expect(result.status).toBe('completed')
    expect(body).not.toHaveProperty('reasoning_effort')
  })

  it('a server without discovery gets what was asked (the server decides)', async () => {
    expect((await run(undiscovered, { think: true })).body?.reasoning_effort).toBe('medium')
  })
})

describe('think on Anthropic: extended thinking by the model table', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  /** One exec's request body (undefined when none was sent); an answer is queued only if one is expected. */
  const bodyOf = async (model: string, think: boolean, extra: Parameters<typeof anthropic>[0] = {}, answer = true) => {
    if (answer) server.enqueue({ body: anthropicAnswer('ok') })
    const before = server.requests.length
    const runtime = new Runtime({
      provider: anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', ...extra }),
      model,
    })
    const result = await runtime.exec('hi', { think })
    return { result, body: server.requests[before]?.json as Body | undefined }
  }

  it('think: true sends thinking enabled with the API minimum budget, or the provider default budget', async () => {
    expect((await bodyOf('claude-sonnet-4-5', true)).body?.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 })
    const configured = await bodyOf('claude-sonnet-4-5', true, { thinking: { budgetTokens: 4000 } })
    expect(configured.body?.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 })
  })

  it("think: false turns the provider's default thinking off", async () => {
    const { body } = await bodyOf('claude-sonnet-4-5', false, { thinking: { budgetTokens: 4000 } })
    expect(body).toBeDefined()
    expect(body).not.toHaveProperty('thinking')
  })

  it('think: true on a model without extended thinking fails invalid_options naming think', async () => {
    const { result, body } = await bodyOf('claude-3-5-haiku-20241022', true, {}, false)
    expect(result.error?.code).toBe('invalid_options')
    expect(result.error?.message).toContain('invalid option think')
    expect(body).toBeUndefined()
  })
})

describe('think on Bedrock: Claude thinking in additionalModelRequestFields', () => {
  const wire = useBedrockWire()

  it('think: true on Claude sends thinking with the minimum budget; on a model without thinking it is refused', async () => {
    wire.server.enqueue(streamResponse(text('ok')))
    const claude = new Runtime({ provider: bedrockProvider(wire.server), model: 'anthropic.claude-sonnet-4-5-v1:0' })
    expect((await claude.exec('hi', { think: true })).status).toBe('completed')
    const body = wire.server.requests[0]?.json as Body
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } })
    const nova = new Runtime({ provider: bedrockProvider(wire.server), model: 'amazon.nova-pro-v1:0' })
    const refused = await nova.exec('hi', { think: true })
    expect(refused.error?.code).toBe('invalid_options')
    expect(refused.error?.message).toContain('invalid option think')
    expect(wire.server.requests).toHaveLength(1)
  })

  it("think: false turns the provider's default thinking off", async () => {
    wire.server.enqueue(streamResponse(text('ok')))
    const runtime = new Runtime({
      provider: bedrockProvider(wire.server, { thinking: { budgetTokens: 2048 } }),
      model: 'anthropic.claude-sonnet-4-5-v1:0',
    })
    await runtime.exec('hi', { think: false })
    expect(wire.server.requests[0]?.json).not.toHaveProperty('additionalModelRequestFields')
  })
})

describe('think options', () => {
  it('take a boolean think on the runtime and on the exec, and refuse anything else', () => {
    const provider = openaiCompatible({ baseURL: 'http://127.0.0.1:9/v1' })
    expect(() => new Runtime({ provider, model: 'm', think: true })).not.toThrow()
    expect(() => new Runtime({ provider, model: 'm', think: 'high' as unknown as boolean })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining('think') }),
    )
    const runtime = new Runtime({ provider, model: 'm' })
    expect(() => runtime.exec('x', { think: 1 as unknown as boolean })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining('think') }),
    )
  })
})
