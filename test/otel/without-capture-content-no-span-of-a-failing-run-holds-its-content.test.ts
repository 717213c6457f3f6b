import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { openai } from '@nestor/providers'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as chat from '../providers/wire/openai/chat-scenarios.js'
import { useWire } from '../support/openai-wire.js'
import { memoryTracing } from '../support/memory-tracing.js'

// Personal data in every place a failing run carries text: the input, the tool's arguments
// (Paris), the tool's error, a retried provider error and the final one.
const CONTENT = ['123-45-6789', 'alice@example.com', 'Paris']
const json = { 'content-type': 'application/json' }
const failure = (status: number, message: string) => ({
  status,
  headers: { ...json, 'retry-after-ms': '1' },
  body: chat.errorBody(message, status >= 500 ? 'server_error' : 'invalid_request_error', null),
})

/** Every string a span exports: name, attributes, status, events and their attributes. */
const everything = (span: ReadableSpan): string =>
  JSON.stringify([span.name, span.attributes, span.status, span.events.map((e) => [e.name, e.attributes])])

describe('otel: a failing run with captureContent false', () => {
  const wire = useWire()

  async function failingRun(captureContent: boolean) {
    wire.server.enqueue(
      { body: chat.singleToolCall() },
      failure(500, 'upstream failed on 123-45-6789'),
      failure(400, 'request about alice@example.com was rejected'),
    )
    const tracing = memoryTracing()
    const lookup = defineTool({
      name: 'get_weather',
      description: 'Looks a customer up',
      parameters: z.object({ city: z.string(), unit: z.string() }),
      execute: () => {
        throw new Error('no customer with SSN 123-45-6789 (alice@example.com)')
      },
    })
    const runtime = new Runtime({
      provider: openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }),
      model: 'gpt-4o-mini',
      maxRetries: 1,
    })
    const stop = instrument(runtime, { tracer: tracing.tracer, captureContent })
    const result = await runtime.exec('Find alice@example.com, SSN 123-45-6789', { tools: [lookup] })
    stop()
    expect(result.status).toBe('failed')
    return tracing.spans()
  }

  it('puts codes in every status and event, and the content nowhere', async () => {
    const spans = await failingRun(false)
    for (const span of spans) for (const text of CONTENT) expect(everything(span)).not.toContain(text)

    const tool = spans.find((s) => s.name === 'execute_tool get_weather')!
    expect(tool.status).toEqual({ code: 2, message: 'tool_error' })
    const chats = spans.filter((s) => s.name === 'chat gpt-4o-mini')
    expect(chats.at(-1)!.status).toEqual({ code: 2, message: 'provider_error' })
    expect(chats.at(-1)!.events.map((e) => [e.name, e.attributes?.['error.type']])).toEqual([
      ['nestor.retry', 'provider_error'],
    ])
    const agent = spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!
    expect(agent.status).toEqual({ code: 2, message: 'provider_error' })
  })

  it('with captureContent true the same run records it (so the check above can fail)', async () => {
    const spans = await failingRun(true)
    const all = spans.map(everything).join('\n')
    for (const text of CONTENT) expect(all).toContain(text)
  })
})
