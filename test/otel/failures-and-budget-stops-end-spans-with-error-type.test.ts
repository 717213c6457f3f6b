import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { SpanStatusCode } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { threeLevelRuntime } from './nested-runs.js'
import { memoryTracing } from '../support/memory-tracing.js'

describe('otel: failures and budget stops', () => {
  it('marks a throwing tool’s span as an error with error.type tool_error while the exec completes', async () => {
    const tracing = memoryTracing()
    const broken = defineTool({
      name: 'broken',
      description: 'throws',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full')
      },
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'broken' }), 'gave up']), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('go', { tools: [broken] })
    stop()
    expect(result.status).toBe('completed')
    const tool = tracing.spans().find((s) => s.name === 'execute_tool broken')!
    // Without captureContent the status carries the receipt status, never the error text.
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_error' })
    expect(tool.attributes).toMatchObject({ 'error.type': 'tool_error', 'nestor.receipt.status': 'tool_error' })
    expect(tracing.spans().find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!.status.code).toBe(
      SpanStatusCode.UNSET,
    )
  })

  it('ends the exec span of a failed model call with error.type provider_error, and the message when content is captured', async () => {
    const tracing = memoryTracing()
    const runtime = new Runtime({ provider: scripted([{ error: 'model exploded', retryable: false }]), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer, captureContent: true })
    const result = await runtime.exec('go')
    stop()
    expect(result.status).toBe('failed')
    expect(tracing.openNames()).toEqual([])
    const agent = tracing.spans().find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!
    expect(agent.status.code).toBe(SpanStatusCode.ERROR)
    expect(agent.status.message).toContain('model exploded')
    expect(agent.attributes).toMatchObject({ 'error.type': 'provider_error', 'nestor.exec.status': 'failed' })
    expect(tracing.spans().find((s) => s.name.startsWith('chat'))!.status.code).toBe(SpanStatusCode.ERROR)
  })

  it('ends every span of a nested run stopped by the tree budget, the stopped exec with error.type budget_exceeded', async () => {
    const tracing = memoryTracing()
    // The root's call and one child's call fit; the next model call anywhere in the tree is refused.
    const { runtime, tools } = threeLevelRuntime({ maxTotalIterations: 3 })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    await runtime.exec('root', { tools })
    stop()
    expect(tracing.openNames()).toEqual([])
    const stopped = tracing.spans().filter((s) => s.attributes['error.type'] === 'budget_exceeded')
    expect(stopped.length).toBeGreaterThan(0)
    for (const span of stopped) {
      expect(span.name).toMatch(/^invoke_agent/)
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'budget_exceeded' })
    }
  })

  it('ends an exec stopped by its own iteration limit with error.type iteration_limit', async () => {
    const tracing = memoryTracing()
    const again = defineTool({
      name: 'again',
      description: 'd',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => n,
    })
    const runtime = new Runtime({
      provider: scripted((_r, i) => calls({ name: 'again', args: { n: i } })),
      model: 'm',
      maxIterations: 2,
    })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    expect((await runtime.exec('go', { tools: [again] })).status).toBe('failed')
    stop()
    expect(tracing.openNames()).toEqual([])
    expect(
      tracing.spans().find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!.attributes['error.type'],
    ).toBe('iteration_limit')
  })
})
