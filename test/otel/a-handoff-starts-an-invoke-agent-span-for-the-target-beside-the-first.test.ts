import { Agent } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { describe, expect, it } from 'vitest'
import { memoryTracing, only, treeOf } from '../support/memory-tracing.js'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

const wire = useOpenAIWire()

class Billing extends Agent {
  instructions = 'You are billing.'
}

describe('otel: handoffs', () => {
  it('each agent that answers has its own invoke_agent span, side by side, holding its own model calls and tools', async () => {
    const tracing = memoryTracing()
    wire.server.enqueue({ body: toolCalls({ id: 'call_h', name: 'transfer_to_billing' }) }, { body: text('Refunded.') })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const stop = instrument(runtime, { tracer: tracing.tracer, agentName: 'desk' })
    const result = await runtime.exec('refund me', { handoffs: [new Billing()], agent: 'desk' })
    stop()
    expect(result.agent).toBe('billing')
    const spans = tracing.spans()
    expect(treeOf(spans)).toEqual([
      'invoke_agent desk',
      '  chat gpt-4o-mini',
      '  execute_tool transfer_to_billing',
      'invoke_agent billing',
      '  chat gpt-4o-mini',
    ])
    const first = only(spans, (s) => s.name === 'invoke_agent desk')
    const second = only(spans, (s) => s.name === 'invoke_agent billing')
    expect(first.attributes['nestor.handoff.to']).toBe('billing')
    expect(second.attributes).toMatchObject({
      'gen_ai.agent.name': 'billing',
      'nestor.handoff.from': 'desk',
      'nestor.exec.id': result.execId,
      'nestor.exec.status': 'completed',
    })
    expect(second.parentSpanContext?.spanId).toBe(first.parentSpanContext?.spanId)
    expect(tracing.openNames()).toEqual([])
  })
})
