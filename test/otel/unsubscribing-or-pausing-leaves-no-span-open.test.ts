import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { memoryTracing } from '../support/memory-tracing.js'

describe('otel: no span is left open', () => {
  it('ends the spans of a running exec when instrument is unsubscribed, and traces nothing after', async () => {
    const tracing = memoryTracing()
    let release: () => void = () => {}
    let started: () => void = () => {}
    const running = new Promise<void>((r) => (started = r))
    const wait = defineTool({
      name: 'wait',
      description: 'd',
      parameters: z.object({}),
      execute: () =>
        new Promise<string>((r) => {
          release = () => r('ok')
          started()
        }),
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'wait' }), 'done', 'again']), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const run = runtime.exec('go', { tools: [wait] })
    await running
    stop()
    expect(tracing.openNames()).toEqual([])
    expect(
      tracing
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['chat m', 'execute_tool wait', 'invoke_agent'])
    release()
    expect((await run).status).toBe('completed')
    await runtime.exec('more')
    expect(tracing.spans()).toHaveLength(3)
  })

  it('ends the exec and the waiting call’s span when an exec pauses for approval', async () => {
    const tracing = memoryTracing()
    const pay = defineTool({
      name: 'pay',
      description: 'd',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'paid',
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'pay' }), 'done']), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('go', { tools: [pay] })
    stop()
    expect(result.status).toBe('paused')
    expect(tracing.openNames()).toEqual([])
    const agent = tracing.spans().find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!
    expect(agent.attributes['nestor.exec.status']).toBe('paused')
    expect(agent.events.map((e) => e.name)).toEqual(['nestor.approval_required'])
    expect(tracing.spans().find((s) => s.name === 'execute_tool pay')!.attributes['nestor.exec.status']).toBe('paused')
  })
})
