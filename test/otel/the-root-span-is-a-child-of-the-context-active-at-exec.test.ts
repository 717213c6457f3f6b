import { Runtime } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { context, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { idOf, memoryTracing, only, parentIdOf } from '../support/memory-tracing.js'

describe('otel: the caller’s active context parents the run', () => {
  const manager = new AsyncLocalStorageContextManager()
  beforeAll(() => void context.setGlobalContextManager(manager.enable()))
  afterAll(() => {
    manager.disable()
    context.disable()
  })

  it('puts the root invoke_agent span under the request span active where exec() was called', async () => {
    const tracing = memoryTracing()
    const runtime = new Runtime({ provider: scripted(['hello']), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    // What an HTTP server instrumentation does: the handler runs inside the request span.
    const result = await tracing.tracer.startActiveSpan('GET /chat', async (request) => {
      await new Promise((r) => setTimeout(r, 1))
      const result = await runtime.exec('hi')
      request.end()
      return result
    })
    stop()
    const spans = tracing.spans()
    const request = only(spans, (s) => s.name === 'GET /chat')
    const agent = only(spans, (s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')
    expect(result.status).toBe('completed')
    expect(parentIdOf(agent)).toBe(idOf(request))
    expect(agent.spanContext().traceId).toBe(request.spanContext().traceId)
  })

  it('starts a new trace when no span is active', async () => {
    const tracing = memoryTracing()
    const runtime = new Runtime({ provider: scripted(['hello']), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    expect(trace.getActiveSpan()).toBeUndefined()
    await runtime.exec('hi')
    stop()
    expect(
      parentIdOf(only(tracing.spans(), (s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')),
    ).toBeUndefined()
  })
})
