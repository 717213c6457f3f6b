import { Agent, handoff, lastTurns } from '@nestor/agents'
import { defineTool, memoryJournal, Runtime, type AgentEvent, type HandoffInfo, type Message } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { collect } from '../support/agent-runs.js'
import { sentMessages, text, toolCalls, useOpenAIWire, within } from '../support/openai-loop-wire.js'

const wire = useOpenAIWire()

class Desk extends Agent {
  constructor(
    override name: string,
    override instructions: string,
  ) {
    super()
  }
}

/** Every tool call in `history` has exactly one result. */
function everyCallAnswered(history: Message[]): boolean {
  const calls = history.flatMap((m) => (m.role === 'assistant' ? m.content.filter((c) => c.type === 'toolCall') : []))
  const answered = history.flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : []))
  return calls.length === answered.length && calls.every((c) => answered.includes(c.id))
}

describe('handoffs', () => {
  it('a loop between two agents that hand over forever ends budget_exceeded at maxHandoffs (default 10), every call answered', async () => {
    const a = new Desk('alpha', 'You are alpha.')
    const b = new Desk('beta', 'You are beta.')
    a.handoffs = [b]
    b.handoffs = [a]
    // Whoever answers hands over to the other one, every time.
    let n = 0
    wire.server.fallback = (request) => {
      const tools = (request.json as { tools: { function: { name: string } }[] }).tools
      return { body: toolCalls({ id: `call_${++n}`, name: tools[0]!.function.name }) }
    }
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    a.runtime = runtime
    const { events, result } = await within(20_000, collect(a.exec('ping')))
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toMatch(/maxHandoffs 10/)
    const handoffs = events.filter((e): e is Extract<AgentEvent, { type: 'handoff' }> => e.type === 'handoff')
    expect(handoffs.map((h) => `${h.from}>${h.to}`)).toEqual([
      'alpha>beta',
      'beta>alpha',
      'alpha>beta',
      'beta>alpha',
      'alpha>beta',
      'beta>alpha',
      'alpha>beta',
      'beta>alpha',
      'alpha>beta',
      'beta>alpha',
    ])
    expect(result.agent).toBe('alpha')
    expect(wire.server.requests).toHaveLength(11)
    expect(everyCallAnswered(result.history)).toBe(true)
    // The instructions followed the active agent.
    expect(sentMessages(wire.server, 1)[0]).toEqual({ role: 'system', content: 'You are beta.' })
  })

  it('what is not an agent, two targets under one name and a name a tool already has are invalid_options, before any request', () => {
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const billing = new Desk('billing', 'You are billing.')
    const code = expect.objectContaining({ code: 'invalid_options' })
    expect(() => runtime.exec('hi', { handoffs: ['billing' as never] })).toThrow(code)
    expect(() => runtime.exec('hi', { handoffs: [{ kind: 'handoff', agent: {} } as never] })).toThrow(code)
    expect(() =>
      runtime.exec('hi', { handoffs: [billing, handoff(new Desk('other', 'Other.'), { name: 'billing' })] }),
    ).toThrow(/handoffs.*distinct names.*billing/)
    expect(() => runtime.exec('hi', { handoffs: [handoff(billing, { name: 'bad name!' })] })).toThrow(code)
    const taken = defineTool({
      name: 'transfer_to_billing',
      description: 'A tool of the same name',
      parameters: z.object({}),
      execute: () => 'x',
    })
    expect(() => runtime.exec('hi', { tools: [taken], handoffs: [billing] })).toThrow(code)
    expect(() => runtime.exec('hi', { handoffs: [billing], maxHandoffs: -1 })).toThrow(code)
    expect(wire.server.requests).toHaveLength(0)
  })

  it('inputFilter shapes what the target receives, onHandoff hears of it, and a journaled run replays the same path with no request', async () => {
    const seen: HandoffInfo[] = []
    const billing = new Desk('billing', 'You are billing.')
    const target = handoff(billing, { inputFilter: lastTurns(1), onHandoff: (info) => void seen.push(info) })
    const earlier: Message[] = [
      { role: 'user', content: 'What is my plan?' },
      { role: 'assistant', content: [{ type: 'text', text: 'The basic plan.' }] } as Message,
    ]
    wire.server.enqueue(
      { body: toolCalls({ id: 'call_h', name: 'transfer_to_billing' }) },
      { body: text('Refund sent.') },
    )
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const journal = memoryJournal()
    const options = { handoffs: [target], agent: 'desk', history: earlier, journal, runId: 'handoff-run' }
    const live = await collect(runtime.exec('Refund my last charge', options))
    expect(live.result.status).toBe('completed')
    expect(live.result.agent).toBe('billing')
    expect(seen).toEqual([expect.objectContaining({ from: 'desk', to: 'billing', toolCallId: 'call_h' })])
    // The target's request: billing's instructions, and only the latest turn (the handoff included).
    const sent = sentMessages(wire.server, 1)
    expect(sent[0]).toEqual({ role: 'system', content: 'You are billing.' })
    expect(sent[1]).toEqual({ role: 'user', content: 'Refund my last charge' })
    expect(JSON.stringify(sent)).not.toContain('What is my plan?')
    expect(sentMessages(wire.server, 0).some((m) => m.content === 'What is my plan?')).toBe(true)

    const replay = await collect(runtime.exec('Refund my last charge', options))
    expect(wire.server.requests).toHaveLength(2)
    expect(replay.result.text).toBe('Refund sent.')
    expect(replay.result.agent).toBe('billing')
    expect(replay.events.filter((e) => e.type === 'handoff')).toEqual([
      expect.objectContaining({ from: 'desk', to: 'billing', toolCallId: 'call_h' }),
    ])
  })

  it("the target's output schema judges the final answer; an onHandoff that throws fails the exec, every call answered", async () => {
    class Quote extends Agent {
      instructions = 'You quote prices.'
      override output = z.object({ eur: z.number() })
    }
    wire.server.enqueue({ body: toolCalls({ id: 'call_q', name: 'transfer_to_quote' }) }, { body: text('{"eur":42}') })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const typed = await runtime.exec('How much?', { handoffs: [new Quote()] })
    expect(typed.status).toBe('completed')
    expect(typed.output).toEqual({ eur: 42 })
    expect((wire.server.requests[1]?.json as { response_format?: { type: string } }).response_format?.type).toBe(
      'json_schema',
    )

    wire.server.enqueue({ body: toolCalls({ id: 'call_t', name: 'transfer_to_quote' }) })
    const failing = handoff(new Quote(), {
      onHandoff: () => {
        throw new Error('the CRM is down')
      },
    })
    const failed = await runtime.exec('How much?', { handoffs: [failing] })
    expect(failed.status).toBe('failed')
    expect(failed.error?.message).toMatch(/the CRM is down/)
    expect(everyCallAnswered(failed.history)).toBe(true)
    expect(failed.agent).toBeUndefined()
    expect(wire.server.requests).toHaveLength(3)
  })
})
