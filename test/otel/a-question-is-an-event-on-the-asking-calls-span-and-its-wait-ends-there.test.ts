import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { memoryTracing } from '../support/memory-tracing.js'

const pick = defineTool({
  name: 'pick',
  description: 'd',
  parameters: z.object({}),
  execute: async (_args, ctx) => (await ctx.ask('Which seat, 12A?', z.object({ seat: z.string() }))).seat,
})

describe('otel: a question (ctx.ask)', () => {
  it('is an event on the asking call’s span, answered in process; its text only with captureContent', async () => {
    for (const captureContent of [false, true]) {
      const tracing = memoryTracing()
      const runtime = new Runtime({
        provider: scripted([calls({ name: 'pick' }), 'done']),
        model: 'm',
        ask: () => ({ seat: '12A' }),
      })
      const stop = instrument(runtime, { tracer: tracing.tracer, captureContent })
      const run = runtime.exec('go', { tools: [pick] })
      let id = ''
      run.subscribe((e) => e.type === 'input_required' && (id = e.inputs[0]!.id))
      expect((await run).status).toBe('completed')
      stop()
      const tool = tracing.spans().find((s) => s.name === 'execute_tool pick')!
      expect(tool.events).toEqual([
        expect.objectContaining({
          name: 'nestor.input_required',
          attributes: {
            'nestor.input.id': id,
            ...(captureContent && { 'nestor.input.question': 'Which seat, 12A?' }),
          },
        }),
      ])
    }
  })

  it('without a handler, the pause ends the asking call’s span with the question on it', async () => {
    const tracing = memoryTracing()
    const runtime = new Runtime({ provider: scripted([calls({ name: 'pick' }), 'done']), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('go', { tools: [pick] })
    stop()
    expect(result.status).toBe('paused')
    expect(tracing.openNames()).toEqual([])
    const tool = tracing.spans().find((s) => s.name === 'execute_tool pick')!
    expect(tool.attributes['nestor.exec.status']).toBe('paused')
    expect(tool.events.map((e) => [e.name, e.attributes?.['nestor.input.id']])).toEqual([
      ['nestor.input_required', result.pending!.inputs[0]!.id],
    ])
  })
})
