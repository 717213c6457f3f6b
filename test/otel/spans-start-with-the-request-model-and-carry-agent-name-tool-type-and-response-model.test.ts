import type { Context } from '@opentelemetry/api'
import { Runtime } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { BasicTracerProvider, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base'
import { describe, expect, it } from 'vitest'
import { calls } from '../support/run.js'
import { memoryTracing } from '../support/memory-tracing.js'
import { Researcher } from '../support/researcher-agent.js'

/** What a sampler or a span processor sees when a span starts: its name and attributes then. */
class AtStart implements SpanProcessor {
  readonly seen: { name: string; attributes: Record<string, unknown> }[] = []
  onStart(span: Span, _parent: Context): void {
    this.seen.push({ name: span.name, attributes: { ...span.attributes } })
  }
  onEnd(_span: ReadableSpan): void {}
  forceFlush = async () => {}
  shutdown = async () => {}
}

describe('otel: GenAI attributes', () => {
  it('the first chat span starts with gen_ai.request.model, before any reply', async () => {
    const atStart = new AtStart()
    const tracer = new BasicTracerProvider({ spanProcessors: [atStart] }).getTracer('t')
    const runtime = new Runtime({ provider: scripted(['hello']), model: 'small-model' })
    const stop = instrument(runtime, { tracer })
    await runtime.exec('hi')
    stop()
    const chat = atStart.seen.find((s) => s.attributes['gen_ai.operation.name'] === 'chat')!
    expect(chat).toMatchObject({ name: 'chat small-model', attributes: { 'gen_ai.request.model': 'small-model' } })
  })

  it('sets gen_ai.response.model, gen_ai.agent.name after the agent tool, gen_ai.tool.type function', async () => {
    const tracing = memoryTracing()
    const runtime = new Runtime({
      provider: scripted((request) => {
        const last = request.messages.at(-1)!
        if (request.system === 'You research.')
          return last.role === 'toolResult' ? 'notes' : calls({ name: 'search', args: { q: 'otters' } })
        return last.role === 'toolResult' ? 'done' : calls({ name: 'researcher', args: { input: 'otters' } })
      }),
      model: 'm',
    })
    const researcher = new Researcher().asTool({ name: 'researcher', description: 'Researches' })
    const stop = instrument(runtime, { tracer: tracing.tracer, agentName: 'front-desk' })
    const result = await runtime.exec('go', { tools: [researcher] })
    stop()
    expect(result.status).toBe('completed')
    const spans = tracing.spans()
    const agents = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')
    expect(agents.map((s) => [s.name, s.attributes['gen_ai.agent.name']]).sort()).toEqual([
      ['invoke_agent front-desk', 'front-desk'],
      ['invoke_agent researcher', 'researcher'],
    ])
    const tools = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool')
    expect(tools.map((s) => s.attributes['gen_ai.tool.type'])).toEqual(['function', 'function'])
    for (const chat of spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat'))
      expect(chat.attributes['gen_ai.response.model']).toBe('m')
  })
})
