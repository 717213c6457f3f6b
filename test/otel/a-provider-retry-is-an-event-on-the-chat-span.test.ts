import { Runtime } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { openai } from '@nestor/providers'
import { SpanStatusCode } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import * as chat from '../providers/wire/openai/chat-scenarios.js'
import { useWire } from '../support/openai-wire.js'
import { memoryTracing } from '../support/memory-tracing.js'

const json = { 'content-type': 'application/json' }
const serverError = {
  status: 500,
  headers: { ...json, 'retry-after-ms': '1' },
  body: chat.errorBody('The server had an error', 'server_error', null),
}

describe('otel: retries over the OpenAI SDK and a loopback server', () => {
  const wire = useWire()

  it('records a 500 then a success as one chat span with a retry event, ended OK with the response id and usage', async () => {
    wire.server.enqueue(serverError, { body: chat.text() })
    const tracing = memoryTracing()
    const runtime = new Runtime({
      provider: openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }),
      model: 'gpt-4o-mini',
    })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('Weather in Paris?')
    stop()
    expect(result.status).toBe('completed')
    expect(wire.server.requests).toHaveLength(2)
    expect(tracing.openNames()).toEqual([])
    const chats = tracing.spans().filter((s) => s.name.startsWith('chat'))
    expect(chats).toHaveLength(1)
    const span = chats[0]!
    expect(span.name).toBe('chat gpt-4o-mini')
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    expect(span.events.map((e) => e.name)).toEqual(['nestor.retry'])
    expect(span.events[0]!.attributes).toMatchObject({
      'nestor.retry.attempt': 1,
      'error.type': 'provider_error',
      'http.response.status_code': 500,
    })
    expect(span.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.id': 'chatcmpl-nestor1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': result.usage.input,
      'gen_ai.usage.output_tokens': result.usage.output,
    })
  })

  it('ends the chat and invoke_agent spans as errors with error.type provider_error when the retries run out', async () => {
    wire.server.enqueue(serverError, serverError, serverError)
    const tracing = memoryTracing()
    const runtime = new Runtime({
      provider: openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }),
      model: 'gpt-4o-mini',
      maxRetries: 2,
    })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('Weather in Paris?')
    stop()
    expect(result.status).toBe('failed')
    expect(tracing.openNames()).toEqual([])
    const chat = tracing.spans().find((s) => s.name.startsWith('chat'))!
    expect(chat.events.map((e) => e.attributes?.['nestor.retry.attempt'])).toEqual([1, 2])
    expect(chat.status.code).toBe(SpanStatusCode.ERROR)
    expect(chat.attributes['error.type']).toBe('provider_error')
    const agent = tracing.spans().find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!
    expect(agent.status.code).toBe(SpanStatusCode.ERROR)
    expect(agent.attributes['error.type']).toBe('provider_error')
  })
})
