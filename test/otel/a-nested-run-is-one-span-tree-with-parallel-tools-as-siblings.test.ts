import { instrument } from '@nestor/otel'
import { describe, expect, it } from 'vitest'
import { collect } from '../support/run.js'
import { threeLevelRuntime } from './nested-runs.js'
import { idOf, memoryTracing, only, parentIdOf, treeOf } from '../support/memory-tracing.js'

const level = ['chat m', 'execute_tool lookup', '  invoke_agent lookup', '    chat m', 'chat m']
const indent = (lines: string[], by: string) => lines.map((l) => by + l)

describe('otel: a nested run is one span tree', () => {
  it('nests invoke_agent under the execute_tool span that opened it, three levels deep, parallel calls as siblings', async () => {
    const tracing = memoryTracing()
    const { runtime, tools } = threeLevelRuntime()
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const { events, result } = await collect(runtime.exec('root', { tools }))
    stop()
    expect(result.status).toBe('completed')
    const spans = tracing.spans()

    const branch = ['execute_tool research', '  invoke_agent research', ...indent(level, '    ')]
    expect(treeOf(spans)).toEqual([
      'invoke_agent',
      '  chat m',
      ...indent(branch, '  '),
      ...indent(branch, '  '),
      '  chat m',
    ])
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1)
    expect(tracing.openNames()).toEqual([])

    // Each nested invoke_agent hangs under the very call (by id) whose body opened it.
    for (const start of events.filter((e) => e.type === 'agent_start' && e.depth > 0)) {
      const agent = only(
        spans,
        (s) =>
          s.attributes['nestor.exec.id'] === start.execId && s.attributes['gen_ai.operation.name'] === 'invoke_agent',
      )
      const tool = only(spans, (s) => idOf(s) === parentIdOf(agent))
      expect(tool.attributes['gen_ai.tool.call.id']).toBe(start.parentToolCallId)
      const opener = only(spans, (s) => idOf(s) === parentIdOf(tool))
      expect(opener.attributes['nestor.exec.id']).toBe(start.parentExecId)
      expect(agent.attributes['nestor.depth']).toBe(start.depth)
    }
  })

  it('runs the two parallel research calls as overlapping siblings under the root exec', async () => {
    const tracing = memoryTracing()
    const { runtime, tools } = threeLevelRuntime()
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('root', { tools })
    stop()
    const spans = tracing.spans()
    const root = only(
      spans,
      (s) =>
        s.attributes['nestor.exec.id'] === result.execId && s.attributes['gen_ai.operation.name'] === 'invoke_agent',
    )
    const [a, b] = spans.filter((s) => s.name === 'execute_tool research')
    expect(parentIdOf(a!)).toBe(idOf(root))
    expect(parentIdOf(b!)).toBe(idOf(root))
    const ns = (t: [number, number]) => t[0] * 1e9 + t[1]
    const [first, second] = [a!, b!].sort((x, y) => ns(x.startTime) - ns(y.startTime))
    expect(ns(second!.startTime)).toBeLessThan(ns(first!.endTime))
  })

  it('sets the GenAI attributes on invoke_agent, chat and execute_tool spans', async () => {
    const tracing = memoryTracing()
    const { runtime, tools } = threeLevelRuntime()
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const result = await runtime.exec('root', { tools })
    stop()
    const spans = tracing.spans()
    const root = only(
      spans,
      (s) =>
        s.attributes['nestor.exec.id'] === result.execId && s.attributes['gen_ai.operation.name'] === 'invoke_agent',
    )
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'm',
      'nestor.depth': 0,
      'nestor.exec.status': 'completed',
      'gen_ai.usage.input_tokens': result.usage.input,
      'gen_ai.usage.output_tokens': result.usage.output,
    })
    const chats = spans.filter((s) => s.name === 'chat m' && parentIdOf(s) === idOf(root))
    expect(chats.map((c) => c.attributes['gen_ai.response.finish_reasons'])).toEqual([['tool_call'], ['stop']])
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'm',
    })
    expect(typeof chats[0]!.attributes['gen_ai.usage.input_tokens']).toBe('number')
    const call = result.messages
      .flatMap((m) => (m.role === 'assistant' ? m.content : []))
      .find((c) => c.type === 'toolCall')!
    const tool = only(spans, (s) => s.attributes['gen_ai.tool.call.id'] === (call.type === 'toolCall' ? call.id : ''))
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'research',
      'nestor.receipt.status': 'ok',
    })
    expect(parentIdOf(tool)).toBe(idOf(root))
    expect(tool.status.code).toBe(0)
    // Without captureContent no message, argument or result is recorded.
    expect(
      spans.some((s) =>
        Object.keys(s.attributes).some(
          (k) => k.includes('messages') || k.includes('arguments') || k.includes('result'),
        ),
      ),
    ).toBe(false)
  })
})
