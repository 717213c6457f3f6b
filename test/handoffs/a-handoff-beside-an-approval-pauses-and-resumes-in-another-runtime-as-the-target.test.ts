import { Agent, handoff, tool } from '@nestor/agents'
import { Runtime, type AgentEvent, type RunState } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { anthropicCall, anthropicOn, anthropicRequest, anthropicText } from '../support/handoff-wires.js'
import { toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'
import { serverPerTest } from '../support/server-per-test.js'
import { startWireServer } from '../support/wire-server.js'

const openaiWire = useOpenAIWire()
const anthropicWire = serverPerTest(startWireServer)

/** A billing specialist on another provider (Anthropic) and model, whose refunds need approval. */
function billingAgent(refunded: string[]) {
  class Billing extends Agent {
    instructions = 'You are billing. You refund charges.'
    override description = 'Charges, refunds and invoices'

    @tool({ description: 'Refund a charge', parameters: z.object({ charge: z.string() }), needsApproval: true })
    refund({ charge }: { charge: string }) {
      refunded.push(charge)
      return `refunded ${charge}`
    }
  }
  return new Billing({ provider: anthropicOn(anthropicWire()), model: 'claude-sonnet-4-6' })
}

class Support extends Agent {
  instructions = 'You are support.'
}

/** Triage on the runtime's provider (OpenAI): one approval-gated tool and two handoffs. */
function triageAgent(refunded: string[], ran: string[]) {
  class Triage extends Agent {
    instructions = 'You are triage. Route the customer.'
    override handoffs = [billingAgent(refunded), handoff(new Support(), { description: 'Anything else' })]

    @tool({ description: 'Move money', parameters: z.object({ amount: z.number() }), needsApproval: true })
    transfer({ amount }: { amount: number }) {
      ran.push(`transfer ${amount}`)
      return 'sent'
    }
  }
  return new Triage()
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

describe.each(['sequential', 'parallel'] as const)(
  'a handoff in the same turn as an approval-gated call (%s tools)',
  (toolExecution) => {
    it('pauses for the approval, resumes from JSON in another runtime, runs the approved call, answers the second handoff "not run" and finishes as the target on its own provider', async () => {
      const refunded: string[] = []
      const ran: string[] = []
      const newRuntime = () => new Runtime({ provider: openaiWire.provider(), model: 'gpt-4o-mini', toolExecution })
      openaiWire.server.enqueue({
        body: toolCalls(
          { id: 'call_pay', name: 'transfer', args: { amount: 30 } },
          { id: 'call_billing', name: 'transfer_to_billing' },
          { id: 'call_support', name: 'transfer_to_support' },
        ),
      })
      const triage = triageAgent(refunded, ran)
      triage.runtime = newRuntime()
      const first = await triage.exec('I was charged twice')
      expect(first.status).toBe('paused')
      expect(first.agent).toBe('triage')
      expect(first.pending?.approvals.map((a) => a.toolName)).toEqual(['transfer'])
      expect(ran).toEqual([])
      const offered = (openaiWire.server.requests[0]?.json as { tools: { function: { name: string } }[] }).tools
      expect(offered.map((t) => t.function.name)).toEqual(['transfer', 'transfer_to_billing', 'transfer_to_support'])

      // Resumed elsewhere: the approved call runs first, then billing answers (and asks for its refund).
      anthropicWire().enqueue({ body: anthropicCall('toolu_refund', 'refund', { charge: 'ch_2' }) })
      const second = newRuntime().resume(
        json(first.pending!.state) as RunState,
        { approve: ['call_pay'] },
        { tools: triage.tools, handoffs: triage.handoffs },
      )
      const events: AgentEvent[] = []
      for await (const event of second) events.push(event)
      const paused = await second
      expect(ran).toEqual(['transfer 30'])
      const handoffs = events.filter((e) => e.type === 'handoff')
      expect(handoffs).toEqual([
        expect.objectContaining({ from: 'triage', to: 'billing', toolCallId: 'call_billing', depth: 0 }),
      ])
      const results = paused.history.filter((m) => m.role === 'toolResult')
      // (In parallel the two handoff calls were answered before the pause, so they come first.)
      expect(Object.fromEntries(results.map((r) => [r.toolCallId, r.isError]))).toEqual({
        call_pay: false,
        call_billing: false,
        call_support: true,
      })
      expect(JSON.stringify(results.find((r) => r.toolCallId === 'call_support')?.content)).toMatch(/not run/)
      // The target's turn: Anthropic, with billing's instructions and tools, and the whole history.
      expect(openaiWire.server.requests).toHaveLength(1)
      const sent = anthropicRequest(anthropicWire(), 0)
      expect(sent.system).toBe('You are billing. You refund charges.')
      expect(sent.model).toBe('claude-sonnet-4-6')
      expect(sent.tools).toEqual(['refund'])
      expect(JSON.stringify(sent.messages)).toContain('I was charged twice')
      // Billing's refund waits in its turn: the state answers as billing.
      expect(paused.status).toBe('paused')
      expect(paused.agent).toBe('billing')
      const state = json(paused.pending!.state) as RunState
      expect(state.agent).toBe('billing')
      expect(refunded).toEqual([])

      // Without the handoffs a resume cannot answer as billing: refused before anything runs.
      expect(() => newRuntime().resume(json(state), { approve: ['toolu_refund'] }, { tools: triage.tools })).toThrow(
        expect.objectContaining({ code: 'invalid_options' }),
      )
      anthropicWire().enqueue({ body: anthropicText('Refunded the duplicate charge.') })
      const done = await newRuntime().resume(state, { approve: ['toolu_refund'] }, { handoffs: triage.handoffs })
      expect(done.status).toBe('completed')
      expect(done.agent).toBe('billing')
      expect(done.text).toBe('Refunded the duplicate charge.')
      expect(refunded).toEqual(['ch_2'])
      expect(anthropicWire().requests).toHaveLength(2)
      expect(openaiWire.server.requests).toHaveLength(1)
    })
  },
)
