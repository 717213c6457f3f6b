import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { SpanStatusCode } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { threeLevelRuntime } from './nested-runs.js'
import { memoryTracing } from '../support/memory-tracing.js'

describe('otel: abort', () => {
  it('ends all spans of a three-level run aborted while the innermost model streams, each exec span with error.type aborted', async () => {
    const tracing = memoryTracing()
    const { runtime, tools } = threeLevelRuntime({}, 5)
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const run = runtime.exec('root', { tools })
    // Abort once both innermost execs have started their model call.
    let innermost = 0
    const off = runtime.on('turn_start', (e) => {
      if (e.depth === 2 && ++innermost === 2) setTimeout(() => run.abort(), 0)
    })
    const result = await run
    off()
    expect(result.status).toBe('aborted')
    expect(tracing.openNames()).toEqual([])
    const agents = tracing.spans().filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')
    expect(agents).toHaveLength(5)
    for (const agent of agents) {
      expect(agent.status.code).toBe(SpanStatusCode.ERROR)
      expect(agent.attributes['error.type']).toBe('aborted')
      expect(agent.attributes['nestor.exec.status']).toBe('aborted')
    }
    stop()
  })

  it('ends the chat span of a stream aborted mid-way as an error with error.type aborted', async () => {
    const tracing = memoryTracing()
    const runtime = new Runtime({
      provider: scripted(['a long answer that streams slowly'], { delayMs: 20, chunkSize: 2 }),
      model: 'm',
    })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const run = runtime.exec('hi')
    const off = runtime.on('message_delta', () => run.abort())
    await run
    off()
    stop()
    expect(tracing.openNames()).toEqual([])
    const chat = tracing.spans().find((s) => s.name.startsWith('chat'))!
    expect(chat.status.code).toBe(SpanStatusCode.ERROR)
    expect(chat.attributes['error.type']).toBe('aborted')
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual(['aborted'])
  })

  it('ends the span of a tool whose body ignores the abort, with receipt status aborted', async () => {
    const tracing = memoryTracing()
    const stuck = defineTool({
      name: 'stuck',
      description: 'never returns',
      parameters: z.object({}),
      execute: () => new Promise<string>(() => {}),
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'stuck' }), 'unreached']), model: 'm' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const run = runtime.exec('hi', { tools: [stuck] })
    const off = runtime.on('tool_start', () => setTimeout(() => run.abort(), 5))
    expect((await run).status).toBe('aborted')
    off()
    stop()
    expect(tracing.openNames()).toEqual([])
    const tool = tracing.spans().find((s) => s.name === 'execute_tool stuck')!
    expect(tool.attributes['nestor.receipt.status']).toBe('aborted')
    expect(tool.status.code).toBe(SpanStatusCode.ERROR)
  })
})
