import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { Runtime, type Provider } from '@nestor/core'
import { aiSdk, anthropic, gemini, openai, openaiCompatible } from '@nestor/providers'
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { startLocalServer, type LocalServer } from '../local-models/local-server.js'
import { startWireServer, type WireServer } from '../support/wire-server.js'
import { provider as bedrockProvider, streamResponse, text, useBedrockWire } from '../support/bedrock-wire.js'
import { anthropicAnswer, chatAnswer, geminiAnswer, responsesAnswer } from './answers.js'

const decision = { reason: 'The refund is over the limit.', choice: 'escalate' }
const decisionText = JSON.stringify(decision)
const names = ['approve', 'escalate', 'reject']

/** Runs one decision among the three names through `provider`. */
const decide = (provider: Provider, model: string) =>
  new Runtime({ provider, model }).exec('Refund of 900 EUR?', { choices: ['approve', 'escalate', 'reject'] })

/** The choice property of the schema an adapter sent, wherever its API puts it. */
const choiceProperty = (schema: Record<string, any>) => schema.properties.choice as Record<string, any>

describe('choices: a forced decision as typed output, through each adapter', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())
  const lastBody = () => server.requests.at(-1)?.json as Record<string, any>

  it('OpenAI Chat sends a strict json_schema whose choice is an enum of the names; result.choice is the name', async () => {
    server.enqueue({ body: chatAnswer(decisionText) })
    const result = await decide(openai({ baseURL: server.url, apiKey: 'sk-test' }), 'gpt-4.1-mini')
    expect(result.status).toBe('completed')
    expect(result.choice).toBe('escalate')
    expect(result.output).toEqual(decision)
    const format = lastBody().response_format.json_schema
    expect(format.name).toBe('choice')
    expect(format.strict).toBe(true)
    expect(choiceProperty(format.schema).enum).toEqual(names)
    expect(format.schema.required).toEqual(['reason', 'choice'])
  })

  it('OpenAI Responses sends the enum in text.format', async () => {
    server.enqueue({ body: responsesAnswer(decisionText) })
    const result = await decide(openai({ baseURL: server.url, apiKey: 'sk-test', api: 'responses' }), 'gpt-4.1-mini')
    expect(result.choice).toBe('escalate')
    expect(lastBody().text.format.strict).toBe(true)
    expect(choiceProperty(lastBody().text.format.schema).enum).toEqual(names)
  })

  it('Anthropic sends the enum in output_config.format, the object closed', async () => {
    server.enqueue({ body: anthropicAnswer(decisionText) })
    const result = await decide(anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }), 'claude-sonnet-4-5')
    expect(result.choice).toBe('escalate')
    const schema = lastBody().output_config.format.schema
    expect(schema.additionalProperties).toBe(false)
    expect(choiceProperty(schema).enum).toEqual(names)
  })

  it('Gemini sends the enum in responseSchema', async () => {
    server.enqueue({ body: geminiAnswer(decisionText) })
    const result = await decide(gemini({ baseURL: server.url, apiKey: 'g-test' }), 'gemini-2.5-flash')
    expect(result.choice).toBe('escalate')
    const schema = lastBody().generationConfig.responseSchema
    expect(choiceProperty(schema).enum).toEqual(names)
  })

  it('a record of name → description puts each description in the schema the model reads', async () => {
    server.enqueue({ body: chatAnswer(JSON.stringify({ reason: 'fine', choice: 'approve' })) })
    const runtime = new Runtime({ provider: openai({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4.1-mini' })
    const result = await runtime.exec('Refund of 9 EUR?', {
      choices: { approve: 'pay it now', reject: 'refuse with a reason' },
    })
    expectTypeOf(result.choice).toEqualTypeOf<'approve' | 'reject' | undefined>()
    expect(result.choice).toBe('approve')
    const choice = choiceProperty(lastBody().response_format.json_schema.schema)
    expect(choice.enum).toEqual(['approve', 'reject'])
    expect(choice.description).toContain('approve: pay it now')
    expect(choice.description).toContain('reject: refuse with a reason')
  })

  it('an answer outside the choices goes back with the issue, and the next answer decides', async () => {
    server.enqueue(
      { body: chatAnswer(JSON.stringify({ reason: 'unsure', choice: 'maybe' })) },
      { body: chatAnswer(decisionText) },
    )
    const before = server.requests.length
    const result = await decide(openai({ baseURL: server.url, apiKey: 'sk-test' }), 'gpt-4.1-mini')
    expect(result.choice).toBe('escalate')
    const second = server.requests.slice(before)[1]?.json as Record<string, any>
    const correction = second.messages.at(-1)
    expect(correction.role).toBe('user')
    expect(String(correction.content)).toContain('choice')
  })

  it('an answer outside the choices with no retries left fails invalid_output, with no choice', async () => {
    server.enqueue({ body: chatAnswer(JSON.stringify({ reason: 'unsure', choice: 'maybe' })) })
    const runtime = new Runtime({ provider: openai({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4.1-mini' })
    const result = await runtime.exec('Refund?', { choices: names, outputRetries: 0 })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('invalid_output')
    expect(result.choice).toBeUndefined()
  })
})

describe('choices on Bedrock: the decision schema in the system prompt', () => {
  const wire = useBedrockWire()

  it('states the schema with the names in the system prompt and decides from the answer', async () => {
    wire.server.enqueue(streamResponse(text(decisionText)))
    const result = await decide(bedrockProvider(wire.server), 'anthropic.claude-sonnet-4-5-20250929-v1:0')
    expect(result.choice).toBe('escalate')
    const system = JSON.stringify((wire.server.requests[0]?.json as Record<string, any>).system)
    expect(system).toContain('JSON Schema')
    expect(system).toContain('escalate')
  })
})

describe('choices on an OpenAI-compatible server (Ollama)', () => {
  let local: LocalServer
  beforeAll(async () => {
    local = await startLocalServer(['completion', 'tools'])
  })
  afterAll(() => local.close())

  it('sends the enum in response_format when discovery answers', async () => {
    local.chat(chatAnswer(decisionText))
    const result = await decide(openaiCompatible({ baseURL: `${local.url}/v1` }), 'qwen3:4b')
    expect(result.choice).toBe('escalate')
    const body = local.chatRequests().at(-1)?.json as Record<string, any>
    expect(choiceProperty(body.response_format.json_schema.schema).enum).toEqual(names)
  })
})

describe('choices through aiSdk(model): the V3 JSON response format', () => {
  it('passes the decision schema as responseFormat and decides from the answer', async () => {
    const model = new MockLanguageModelV3({
      provider: 'mock.chat',
      modelId: 'mock-1',
      doStream: {
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: decisionText },
            { type: 'text-end', id: 't' },
            {
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 5, text: 5, reasoning: undefined },
              },
            },
          ],
        }),
      },
    })
    const result = await decide(aiSdk(model), 'mock-1')
    expect(result.choice).toBe('escalate')
    const format = model.doStreamCalls[0]?.responseFormat as Record<string, any>
    expect(format).toMatchObject({ type: 'json', name: 'choice' })
    expect(choiceProperty(format.schema).enum).toEqual(names)
  })
})
