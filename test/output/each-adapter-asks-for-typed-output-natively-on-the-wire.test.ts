import { Runtime, defineTool, type AgentEvent, type Provider } from '@nestor/core'
import { anthropic, gemini, openai, openaiCompatible } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startLocalServer, type LocalServer } from '../local-models/local-server.js'
import { startWireServer, type WireServer } from '../support/wire-server.js'
import { anthropicAnswer, chatAnswer, chatToolCall, geminiAnswer, responsesAnswer } from './answers.js'

const Trip = z.object({ city: z.string(), days: z.number().int(), tags: z.array(z.string()) })
const answer = { city: 'Lisbon', days: 3, tags: ['food', 'tiles'] }
const answerText = JSON.stringify(answer)

const weather = defineTool({
  name: 'weather',
  description: 'Weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
})

/** Runs a typed exec and returns its result with the partial_output values it streamed. */
async function typedRun(provider: Provider, model: string, tools = false) {
  const runtime = new Runtime({ provider, model })
  const run = runtime.exec('Plan a trip', { output: Trip, tools: tools ? [weather] : [] })
  const partials: unknown[] = []
  const events: AgentEvent[] = []
  for await (const event of run) {
    events.push(event)
    if (event.type === 'partial_output') partials.push(event.partial)
  }
  return { result: await run, partials, events }
}

/** Every partial is a prefix-state of the answer text, and the last one is the answer itself. */
function expectPartialsFollowTheAnswer(partials: unknown[]): void {
  expect(partials.length).toBeGreaterThan(2)
  expect(partials.at(-1)).toEqual(answer)
  for (const partial of partials) expect(typeof partial).toBe('object')
}

describe('typed output on the wire, through each official SDK', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())
  const lastBody = () => server.requests.at(-1)?.json as Record<string, any>

  it('OpenAI Chat sends response_format json_schema, strict when every property is required', async () => {
    server.enqueue({ body: chatAnswer(answerText) })
    const { result, partials } = await typedRun(openai({ baseURL: server.url, apiKey: 'sk-test' }), 'gpt-4.1-mini')
    expect(result.status).toBe('completed')
    expect(result.output).toEqual(answer)
    expectPartialsFollowTheAnswer(partials)
    const format = lastBody().response_format
    expect(format.type).toBe('json_schema')
    expect(format.json_schema.name).toBe('output')
    expect(format.json_schema.strict).toBe(true)
    expect(format.json_schema.schema).toMatchObject({
      type: 'object',
      required: ['city', 'days', 'tags'],
      additionalProperties: false,
    })
  })

  it('OpenAI Chat goes non-strict, with the schema unchanged, when a property is optional', async () => {
    server.enqueue({ body: chatAnswer('{"city":"Porto"}') })
    const runtime = new Runtime({ provider: openai({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4.1-mini' })
    const result = await runtime.exec('Plan', { output: z.object({ city: z.string(), note: z.string().optional() }) })
    expect(result.output).toEqual({ city: 'Porto' })
    const format = lastBody().response_format
    expect(format.json_schema.strict).toBe(false)
    expect(format.json_schema.schema.required).toEqual(['city'])
  })

  it('OpenAI Chat combines response_format with tools in one request and answers after the tool', async () => {
    server.enqueue({ body: chatToolCall('call_w', 'weather', { city: 'Lisbon' }) }, { body: chatAnswer(answerText) })
    const before = server.requests.length
    const { result } = await typedRun(openai({ baseURL: server.url, apiKey: 'sk-test' }), 'gpt-4.1-mini', true)
    expect(result.output).toEqual(answer)
    const bodies = server.requests.slice(before).map((r) => r.json as Record<string, any>)
    expect(bodies).toHaveLength(2)
    for (const body of bodies) {
      expect(body.tools).toHaveLength(1)
      expect(body.response_format.type).toBe('json_schema')
    }
  })

  it('OpenAI Chat: a refusal fails the exec with code refusal and keeps the text', async () => {
    server.enqueue({ body: chatAnswer("I can't help with that.", { refusal: true }) })
    const runtime = new Runtime({ provider: openai({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4.1-mini' })
    const result = await runtime.exec('Plan', { output: Trip })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('refusal')
    expect(result.error?.message).toContain("I can't help with that.")
    expect(result.output).toBeUndefined()
  })

  it('OpenAI Responses sends text.format json_schema', async () => {
    server.enqueue({ body: responsesAnswer(answerText) })
    const { result, partials } = await typedRun(
      openai({ baseURL: server.url, apiKey: 'sk-test', api: 'responses' }),
      'gpt-4.1-mini',
    )
    expect(result.output).toEqual(answer)
    expectPartialsFollowTheAnswer(partials)
    expect(lastBody().text.format).toMatchObject({
      type: 'json_schema',
      name: 'output',
      strict: true,
      schema: { type: 'object', additionalProperties: false },
    })
  })

  it('Anthropic sends output_config.format json_schema with every object closed', async () => {
    server.enqueue({ body: anthropicAnswer(answerText) })
    const { result, partials } = await typedRun(
      anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }),
      'claude-sonnet-4-5',
    )
    expect(result.output).toEqual(answer)
    expectPartialsFollowTheAnswer(partials)
    expect(lastBody().output_config.format).toMatchObject({
      type: 'json_schema',
      schema: { type: 'object', additionalProperties: false },
    })
  })

  it("Anthropic's refusal stop reason fails the exec with code refusal", async () => {
    server.enqueue({ body: anthropicAnswer('No.', 'refusal') })
    const runtime = new Runtime({
      provider: anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }),
      model: 'claude-sonnet-4-5',
    })
    const result = await runtime.exec('Plan', { output: Trip })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('refusal')
  })

  it('Gemini sends responseMimeType and responseSchema in its schema subset', async () => {
    server.enqueue({ body: geminiAnswer(answerText) })
    const { result, partials } = await typedRun(gemini({ baseURL: server.url, apiKey: 'g-test' }), 'gemini-2.5-flash')
    expect(result.output).toEqual(answer)
    expectPartialsFollowTheAnswer(partials)
    const config = lastBody().generationConfig
    expect(config.responseMimeType).toBe('application/json')
    expect(config.responseSchema.type.toLowerCase()).toBe('object')
    expect(Object.keys(config.responseSchema.properties)).toEqual(['city', 'days', 'tags'])
  })

  it('Gemini 2.5 with tools states the schema in the instructions; Gemini 3 sends both natively', async () => {
    server.enqueue({ body: geminiAnswer(answerText) }, { body: geminiAnswer(answerText) })
    const older = await typedRun(gemini({ baseURL: server.url, apiKey: 'g-test' }), 'gemini-2.5-flash', true)
    expect(older.result.output).toEqual(answer)
    const olderBody = lastBody()
    expect(olderBody.generationConfig?.responseMimeType).toBeUndefined()
    expect(olderBody.tools).toBeDefined()
    expect(JSON.stringify(olderBody.systemInstruction)).toContain('JSON Schema')
    const newer = await typedRun(gemini({ baseURL: server.url, apiKey: 'g-test' }), 'gemini-3-flash-preview', true)
    expect(newer.result.output).toEqual(answer)
    expect(lastBody().generationConfig.responseMimeType).toBe('application/json')
    expect(lastBody().tools).toBeDefined()
  })
})

describe('typed output on an OpenAI-compatible server', () => {
  let discovered: LocalServer
  let undiscovered: LocalServer
  beforeAll(async () => {
    discovered = await startLocalServer(['completion', 'tools'])
    undiscovered = await startLocalServer(undefined)
  })
  afterAll(async () => {
    await discovered.close()
    await undiscovered.close()
  })

  it('sends response_format when discovery answers (Ollama)', async () => {
    discovered.chat(chatAnswer(answerText))
    const { result } = await typedRun(openaiCompatible({ baseURL: `${discovered.url}/v1` }), 'qwen3:4b')
    expect(result.output).toEqual(answer)
    const body = discovered.chatRequests().at(-1)?.json as Record<string, any>
    expect(body.response_format.type).toBe('json_schema')
  })

  it('states the schema in the system prompt when the server has no discovery (vLLM, LM Studio)', async () => {
    undiscovered.chat(chatAnswer(answerText))
    const { result } = await typedRun(openaiCompatible({ baseURL: `${undiscovered.url}/v1` }), 'some-model')
    expect(result.output).toEqual(answer)
    const body = undiscovered.chatRequests().at(-1)?.json as Record<string, any>
    expect(body.response_format).toBeUndefined()
    expect(body.messages[0].role).toBe('system')
    expect(body.messages[0].content).toContain('"city"')
  })
})
