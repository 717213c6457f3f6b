import { Runtime, defineTool, type AgentEvent, type ToolCall } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { collect, historyProblems } from '../support/run.js'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

const slow = defineTool({
  name: 'slow',
  description: 'takes a while',
  parameters: z.object({}),
  execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('slow done'), 80)),
})
const quick = defineTool({
  name: 'quick',
  description: 'answers at once',
  parameters: z.object({}),
  execute: () => 'quick done',
})
const boom = defineTool({
  name: 'boom',
  description: 'its hook throws',
  parameters: z.object({}),
  execute: () => 'never',
})

// A hook that throws for one call fails the exec; its siblings must still end first.
const hooks = {
  beforeToolCall: (call: ToolCall) => {
    if (call.name === 'boom') throw new Error('the hook broke')
    return undefined
  },
}

async function runWith(
  provider: ReturnType<ReturnType<typeof useOpenAIWire>['provider']>,
  toolExecution: 'parallel' | 'sequential',
) {
  const runtime = new Runtime({ provider, model: 'gpt-4o-mini', toolExecution, hooks })
  const heard: AgentEvent[] = []
  runtime.on('*', (event) => heard.push(event))
  const { events, result } = await collect(runtime.exec('go', { tools: [slow, quick, boom] }))
  const receiptsAtResolve = result.receipts.length
  // Give any straggler time to arrive: none may.
  await new Promise((r) => setTimeout(r, 150))
  return { events, heard, result, receiptsAtResolve }
}

describe('every call ends before agent_end when a sibling throws', () => {
  const wire = useOpenAIWire()

  it.each(['parallel', 'sequential'] as const)(
    '%s: each call has exactly one result and one receipt, all before agent_end',
    async (mode) => {
      const order = ['slow', 'boom', 'quick']
      wire.server.enqueue(
        { body: toolCalls(...order.map((name) => ({ id: `call_${name}`, name }))) },
        { body: text('unreachable') },
      )
      const { events, heard, result, receiptsAtResolve } = await runWith(wire.provider(), mode)

      expect(result.status).toBe('failed')
      expect(result.error?.message).toContain('the hook broke')
      for (const stream of [events, heard]) {
        expect(stream.at(-1)?.type).toBe('agent_end')
        const ends = stream.filter((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end')
        expect(ends.map((e) => e.toolCallId).sort()).toEqual(['call_boom', 'call_quick', 'call_slow'])
      }
      expect(result.receipts.map((r) => r.toolCallId).sort()).toEqual(['call_boom', 'call_quick', 'call_slow'])
      expect(result.receipts.length).toBe(receiptsAtResolve)
      expect(historyProblems(result.history)).toEqual([])
      expect(wire.server.requests).toHaveLength(1)
    },
  )

  it('parallel: the sibling that was running when the hook threw keeps its real result', async () => {
    wire.server.enqueue({ body: toolCalls({ id: 'call_slow', name: 'slow' }, { id: 'call_boom', name: 'boom' }) })
    const { result } = await runWith(wire.provider(), 'parallel')
    expect(result.receipts.find((r) => r.toolCallId === 'call_slow')).toMatchObject({ status: 'ok', attempts: 1 })
    expect(result.history.find((m) => m.role === 'toolResult' && m.toolCallId === 'call_slow')).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'slow done' }],
    })
  })
})
