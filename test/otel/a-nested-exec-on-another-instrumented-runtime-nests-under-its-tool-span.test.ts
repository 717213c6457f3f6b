import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { memoryTracing, treeOf } from '../support/memory-tracing.js'

describe('otel: execs on two runtimes', () => {
  it('puts a child exec run on its own instrumented runtime under the tool call that opened it', async () => {
    const tracing = memoryTracing()
    const specialist = new Runtime({ provider: scripted(['expert answer']), model: 'big' })
    const consult = defineTool({
      name: 'consult',
      description: 'd',
      parameters: z.object({}),
      execute: async () => (await specialist.exec('q')).text,
    })
    const main = new Runtime({ provider: scripted([calls({ name: 'consult' }), 'done']), model: 'small' })
    const stops = [instrument(main, { tracer: tracing.tracer }), instrument(specialist, { tracer: tracing.tracer })]
    await main.exec('go', { tools: [consult] })
    for (const stop of stops) stop()
    expect(tracing.openNames()).toEqual([])
    expect(treeOf(tracing.spans())).toEqual([
      'invoke_agent',
      '  chat small',
      '  execute_tool consult',
      '    invoke_agent consult',
      '      chat big',
      '  chat small',
    ])
  })
})
