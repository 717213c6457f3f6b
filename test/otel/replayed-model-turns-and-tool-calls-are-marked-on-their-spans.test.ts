import { Runtime, defineTool, memoryJournal } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { memoryTracing } from '../support/memory-tracing.js'
import { calls } from '../support/run.js'

describe('otel: a run replayed from its journal', () => {
  it('marks the chat and tool spans of replayed steps with nestor.replayed, and no span of the live run', async () => {
    const charge = defineTool({ name: 'charge', description: 'c', parameters: z.object({}), execute: () => 'charged' })
    const journal = memoryJournal()
    const runtime = new Runtime({ provider: scripted([calls({ name: 'charge', id: 'c1' }), 'done']), model: 'm' })
    const tracing = memoryTracing()
    const stop = instrument(runtime, { tracer: tracing.tracer })
    await runtime.exec('go', { tools: [charge], journal, runId: 'r1' })
    const live = tracing.spans().length
    await runtime.exec('go', { tools: [charge], journal, runId: 'r1' })
    stop()
    const marked = (spans: typeof all) =>
      spans.filter((s) => s.attributes['nestor.replayed'] === true).map((s) => s.name.split(' ')[0])
    const all = tracing.spans()
    expect(marked(all.slice(0, live))).toEqual([])
    expect(marked(all.slice(live)).sort()).toEqual(['chat', 'chat', 'execute_tool'])
  })
})
