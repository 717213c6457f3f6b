import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type RunState } from '@nestor/core'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'
import { startPaymentsApi, type PaymentsApi } from '../support/payments-api.js'
import { historyProblems } from '../support/run.js'
import { confirmation, refundTree, scriptRefunds } from './support/refund-tree.js'

describe('a question asked two execs deep, with no ask handler', () => {
  const wire = useOpenAIWire()
  let api: PaymentsApi
  beforeEach(async () => {
    api = await startPaymentsApi()
    scriptRefunds(wire.server)
  })
  afterEach(() => api.close())

  const pause = async (options: { stateSecret?: string; stateMaxAgeMs?: number } = {}) => {
    const tree = refundTree(api, (ctx) => ctx.ask('Refund 120 EUR to the customer?', confirmation))
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini', ...options })
    const run = runtime.exec('a customer wants 120 EUR back', { tools: tree.tools })
    const events: AgentEvent[] = []
    run.subscribe((event) => events.push(event))
    const paused = await run
    // What a server stores and reads back: plain JSON.
    const state = JSON.parse(JSON.stringify(paused.pending?.state)) as RunState
    return { ...tree, paused, events, state }
  }
  /** A new runtime, as in another process, on the same model server. */
  const elsewhere = (options: { stateSecret?: string } = {}) =>
    new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini', ...options })

  it('pauses the whole tree with the question, and a resume in another runtime answers it once', async () => {
    const { paused, events, state, runs, tools } = await pause()
    expect(paused.status).toBe('paused')
    expect(paused.pending?.approvals).toEqual([])
    const [input] = paused.pending?.inputs ?? []
    expect(input).toMatchObject({ toolCallId: 'call_refund', question: 'Refund 120 EUR to the customer?' })
    expect(input?.path).toHaveLength(2)
    expect(input?.schema).toMatchObject({ type: 'object', required: ['confirm'] })
    // Announced once, by the exec whose call asked.
    const announced = events.filter((e) => e.type === 'input_required')
    expect(announced.map((e) => [e.depth, e.type === 'input_required' && e.inputs.map((i) => i.id)])).toEqual([
      [1, [input?.id]],
    ])

    const done = await elsewhere().resume(
      state,
      { answers: { [input!.id]: { confirm: true, note: 'goodwill' } } },
      { tools },
    )
    expect(done.status).toBe('completed')
    expect(done.text).toBe('root: desk: refund ch_1 sent (goodwill)')
    // The body ran again from its start under the same idempotency key: the API charged once.
    expect(runs.refund).toBe(2)
    expect(api.keys).toHaveLength(2)
    expect(new Set(api.keys).size).toBe(1)
    expect(api.charges).toHaveLength(1)
    expect(historyProblems(done.history)).toEqual([])
  })

  it('refuses a bad answer (invalid_options, the issues named) and leaves the state unspent', async () => {
    const { paused, state, tools } = await pause()
    const id = paused.pending!.inputs[0]!.id
    const runtime = elsewhere()
    expect(() => runtime.resume(state, { answers: { [id]: { confirm: 'yes' } } }, { tools })).toThrow(
      expect.objectContaining({ code: 'invalid_options', issues: [expect.stringMatching(/confirm/)] }),
    )
    const done = await runtime.resume(state, { answers: { [id]: { confirm: false } } }, { tools })
    expect(done.text).toBe('root: desk: refund cancelled')
  })

  it('refuses an answer to an id the state does not wait for (invalid_state)', async () => {
    const { state, tools } = await pause()
    expect(() => elsewhere().resume(state, { answers: { input_nope: { confirm: true } } }, { tools })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/input_nope is not waiting/) }),
    )
  })

  it('refuses an answer after the state expired (invalid_state)', async () => {
    const { paused, state, tools } = await pause({ stateMaxAgeMs: 1 })
    while (Date.now() <= (state.expiresAt ?? 0)) await new Promise((r) => setTimeout(r, 2))
    const id = paused.pending!.inputs[0]!.id
    expect(() => elsewhere().resume(state, { answers: { [id]: { confirm: true } } }, { tools })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/expired/) }),
    )
  })

  it('a signed state covers its questions: one changed question is refused', async () => {
    const { paused, state, tools } = await pause({ stateSecret: 'ask-secret' })
    const forged = structuredClone(state)
    forged.inputs![0]!.schema = { type: 'object' }
    const id = paused.pending!.inputs[0]!.id
    expect(() =>
      elsewhere({ stateSecret: 'ask-secret' }).resume(forged, { answers: { [id]: { nothing: 1 } } }, { tools }),
    ).toThrow(expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/signature/) }))
  })

  it('a resume that leaves a question unanswered pauses again with the same id', async () => {
    const { paused, state, tools } = await pause()
    const again = await elsewhere().resume(state, {}, { tools })
    expect(again.status).toBe('paused')
    expect(again.pending?.inputs.map((i) => i.id)).toEqual([paused.pending!.inputs[0]!.id])
  })
})

describe('a root call that asks twice', () => {
  const wire = useOpenAIWire()

  it('pauses for each question in turn; the first answer stays given while the second waits', async () => {
    const asked: string[] = []
    const plan = defineTool({
      name: 'plan',
      description: 'Plans a trip',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        const { city } = await ctx.ask('Where to?', z.object({ city: z.string() }), { key: 'city' })
        asked.push(city)
        const { nights } = await ctx.ask(`How long in ${city}?`, z.object({ nights: z.number().int() }))
        return `${nights} nights in ${city}`
      },
    })
    wire.server.enqueue({ body: toolCalls({ id: 'call_plan', name: 'plan' }) }, { body: text('planned') })
    const runtime = () => new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const first = await runtime().exec('plan a trip', { tools: [plan] })
    const city = first.pending!.inputs[0]!
    expect(city.question).toBe('Where to?')
    const second = await runtime().resume(
      first.pending!.state,
      { answers: { [city.id]: { city: 'Porto' } } },
      { tools: [plan] },
    )
    const nights = second.pending!.inputs[0]!
    expect(nights.question).toBe('How long in Porto?')
    expect(nights.id).not.toBe(city.id)
    const state = JSON.parse(JSON.stringify(second.pending!.state)) as RunState
    const done = await runtime().resume(state, { answers: { [nights.id]: { nights: 3 } } }, { tools: [plan] })
    expect(done.status).toBe('completed')
    expect(done.history.find((m) => m.role === 'toolResult')).toMatchObject({
      content: [{ text: '3 nights in Porto' }],
    })
    expect(asked).toEqual(['Porto', 'Porto'])
  })
})
