import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { memoryTracing } from '../support/memory-tracing.js'

// A later turn's chat span starts with the model the previous reply named (the usual case: no
// rename), so a turn on another model must still be renamed and re-attributed at its reply.
describe('otel: the model of each chat span', () => {
  it('names every chat span and sets gen_ai.request.model after its own turn’s model, when prepareTurn switches models', async () => {
    const tracing = memoryTracing()
    const step = defineTool({ name: 'step', description: 's', parameters: z.object({}), execute: () => 'ok' })
    const models = ['small', 'big', 'big', 'small']
    const runtime = new Runtime({
      provider: scripted([
        calls({ name: 'step', args: {} }),
        calls({ name: 'step', args: {} }),
        calls({ name: 'step', args: {} }),
        'done',
      ]),
      model: 'small',
      duplicateCalls: 'allow',
      hooks: { prepareTurn: ({ iteration }) => ({ model: models[iteration - 1]! }) },
    })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('go', { tools: [step] })
    stop()
    expect(result.status).toBe('completed')
    const chats = tracing
      .spans()
      .filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')
      .sort((a, b) => Number(a.attributes['nestor.iteration']) - Number(b.attributes['nestor.iteration']))
    expect(
      chats.map((s) => [s.name, s.attributes['gen_ai.request.model'], s.attributes['gen_ai.provider.name']]),
    ).toEqual(models.map((m) => [`chat ${m}`, m, 'scripted']))
    // The exec's span keeps the first model it saw.
    expect(
      tracing.spans().find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')!.attributes[
        'gen_ai.request.model'
      ],
    ).toBe('small')
  })
})
