import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type NestorError, Runtime, defineGuardrail, defineTool, type AgentEvent } from '@nestor/core'
import { sentMessages, text, toolCalls, useOpenAIWire, within } from '../support/openai-loop-wire.js'
import { collect, historyProblems } from '../support/run.js'

const wire = useOpenAIWire()
const runtimeWith = (options: Partial<ConstructorParameters<typeof Runtime>[0]> = {}) =>
  new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini', ...options })

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

const guardrailEvents = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'guardrail' ? [[e.name, e.kind, e.verdict, e.reason ?? null]] : []))

describe('input guardrails', () => {
  // The model's tool call is complete before the guardrail answers: only the guardrail's word lets the tool run.
  const race = async (verdict: 'pass' | 'trip') => {
    wire.server.enqueue({ body: toolCalls({ id: 'c1', name: 'lookup', args: { q: 'x' } }) }, { body: text('done') })
    const order: string[] = []
    const turnEnded = deferred()
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up',
      parameters: z.object({ q: z.string() }),
      execute: () => (order.push('tool ran'), 'found'),
    })
    const slow = defineGuardrail({
      name: 'slow_check',
      check: async () => {
        await turnEnded.promise
        await new Promise((r) => setTimeout(r, 30))
        order.push('guardrail answered')
        return verdict === 'pass' ? { pass: true } : { tripwire: true, reason: 'not allowed' }
      },
    })
    const runtime = runtimeWith({ guardrails: { input: [slow] } })
    runtime.on('message_end', (e) => void (e.message.role === 'assistant' && turnEnded.resolve()))
    const { events, result } = await collect(runtime.exec('go', { tools: [lookup] }))
    return { order, events, result }
  }

  it('a slow parallel guardrail that passes: the tool the fast model asked for runs only after it', async () => {
    const { order, result, events } = await race('pass')
    expect(order).toEqual(['guardrail answered', 'tool ran'])
    expect(result.status).toBe('completed')
    expect(result.text).toBe('done')
    expect(guardrailEvents(events)).toEqual([['slow_check', 'input', 'pass', null]])
  })

  it('a slow parallel guardrail that trips: the tool never runs, the call is answered, the exec fails guardrail_tripped', async () => {
    const { order, result } = await race('trip')
    expect(order).toEqual(['guardrail answered'])
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('guardrail_tripped')
    expect((result.error as NestorError).guardrail).toEqual({
      name: 'slow_check',
      kind: 'input',
      reason: 'not allowed',
    })
    expect(historyProblems(result.history)).toEqual([])
    expect(result.receipts.map((r) => [r.toolCallId, r.status])).toEqual([['c1', 'skipped']])
    expect(wire.server.requests).toHaveLength(1)
  })

  it('a trip aborts the model call in flight (the stream never ends on its own)', async () => {
    const body = text('a long answer that never finishes')
    wire.server.enqueue({ body, stallAfterBytes: 150 })
    const started = deferred()
    const trips = defineGuardrail({
      name: 'no_ssn',
      check: async (input) => {
        await started.promise
        return /\d{3}-\d{2}-\d{4}/.test(input) ? { tripwire: true, reason: 'an SSN' } : { pass: true }
      },
    })
    const runtime = runtimeWith({ guardrails: { input: [trips] } })
    runtime.on('message_start', () => started.resolve())
    const result = await within(10_000, runtime.exec('my SSN is 123-45-6789'))
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('guardrail_tripped')
    expect(result.error?.message).toMatch(/no_ssn tripped: an SSN/)
    const last = result.history.at(-1)
    expect(last?.role === 'assistant' && last.stopReason).toBe('aborted')
  })

  it("mode 'blocking' runs before the first model call: a trip makes no request at all", async () => {
    const blocking = defineGuardrail({ name: 'gate', mode: 'blocking', check: () => ({ tripwire: true }) })
    const result = await runtimeWith({ guardrails: { input: [blocking] } }).exec('hello')
    expect(result.error?.code).toBe('guardrail_tripped')
    expect(wire.server.requests).toHaveLength(0)
    expect(result.iterationsUsed).toBe(0)
  })

  it("a guardrail that throws or times out trips with reason 'error'; failOpen lets it pass", async () => {
    const throws = defineGuardrail({
      name: 'broken',
      check: () => {
        throw new Error('classifier down')
      },
    })
    const hangs = defineGuardrail({ name: 'hangs', timeoutMs: 20, check: () => new Promise<undefined>(() => {}) })
    for (const g of [throws, hangs]) {
      wire.server.enqueue({ body: text('hi') })
      const result = await within(10_000, runtimeWith().exec('hello', { guardrails: { input: [g] } }))
      expect(result.error?.code).toBe('guardrail_tripped')
      expect((result.error as NestorError).guardrail?.reason).toBe('error')
    }
    wire.server.enqueue({ body: text('hi') })
    const open = defineGuardrail({ ...hangs, name: 'hangs_open', failOpen: true })
    const passed = await within(10_000, runtimeWith().exec('hello', { guardrails: { input: [open] } }))
    expect(passed.status).toBe('completed')
  })
})

describe('output guardrails', () => {
  const noSsn = defineGuardrail({
    name: 'no_ssn',
    check: (answer) =>
      /\d{3}-\d{2}-\d{4}/.test(answer)
        ? { retry: 'feedback', feedback: 'Do not repeat the SSN; answer without it.' }
        : { pass: true },
  })

  it('retry feedback goes back to the model within the iteration budget, then the answer passes', async () => {
    wire.server.enqueue({ body: text('Your SSN is 123-45-6789.') }, { body: text('Your SSN is on file.') })
    const { events, result } = await collect(runtimeWith().exec('what is my SSN?', { guardrails: { output: [noSsn] } }))
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Your SSN is on file.')
    expect(sentMessages(wire.server, 1).at(-1)).toMatchObject({
      role: 'user',
      content: 'Do not repeat the SSN; answer without it.',
    })
    expect(guardrailEvents(events).map((g) => g[2])).toEqual(['retry', 'pass'])
  })

  it('feedback that never satisfies the guardrail stops at the iteration budget', async () => {
    wire.server.enqueue({ body: text('123-45-6789') }, { body: text('123-45-6789') })
    const result = await runtimeWith().exec('x', { guardrails: { output: [noSsn] }, maxIterations: 2 })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('iteration_limit')
  })

  it('a typed output is checked as a value; a tripwire fails the exec and keeps the text', async () => {
    wire.server.enqueue({ body: text('{"amount":5000}') })
    const seen: unknown[] = []
    const cap = defineGuardrail({
      name: 'cap',
      check: (_text, ctx) => {
        seen.push(ctx.output)
        return (ctx.output as { amount: number }).amount > 1000 ? { tripwire: true, reason: 'over 1000' } : undefined
      },
    })
    const result = await runtimeWith({ guardrails: { output: [cap] } }).exec('refund', {
      output: z.object({ amount: z.number() }),
    })
    expect(seen).toEqual([{ amount: 5000 }])
    expect(result.status).toBe('failed')
    expect((result.error as NestorError).guardrail).toEqual({ name: 'cap', kind: 'output', reason: 'over 1000' })
    expect(result.text).toBe('{"amount":5000}')
  })

  // A stop-at-tool or control stop completes with the tool's result as the answer: it is checked too.
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks up the record',
    parameters: z.object({ q: z.string() }),
    control: { statusField: 'status', continueStatuses: ['more'], stopStatuses: ['done'] },
    execute: ({ q }) => ({ status: q === 'raw' ? 'done' : 'more', record: 'SSN 123-45-6789' }),
  })

  it('a stopAtTools answer that trips fails the exec, keeps the text and leaves the history valid', async () => {
    wire.server.enqueue({ body: toolCalls({ id: 'c1', name: 'lookup', args: { q: 'x' } }) })
    const tripSsn = defineGuardrail({
      name: 'trip_ssn',
      check: (answer) => (/\d{3}-\d{2}-\d{4}/.test(answer) ? { tripwire: true, reason: 'an SSN' } : undefined),
    })
    const result = await runtimeWith({ stopAtTools: ['lookup'] }).exec('who?', {
      tools: [lookup],
      guardrails: { output: [tripSsn] },
    })
    expect(result.status).toBe('failed')
    expect((result.error as NestorError).guardrail).toEqual({ name: 'trip_ssn', kind: 'output', reason: 'an SSN' })
    expect(result.text).toContain('123-45-6789')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a control stop answer that asks for a retry sends the feedback and the loop goes on', async () => {
    wire.server.enqueue(
      { body: toolCalls({ id: 'c1', name: 'lookup', args: { q: 'raw' } }) },
      { body: text('The record is on file.') },
    )
    const { events, result } = await collect(
      runtimeWith().exec('who?', { tools: [lookup], guardrails: { output: [noSsn] } }),
    )
    expect(result.status).toBe('completed')
    expect(result.text).toBe('The record is on file.')
    expect(sentMessages(wire.server, 1).at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('SSN') })
    expect(guardrailEvents(events).map((g) => g[2])).toEqual(['retry', 'pass'])
    expect(historyProblems(result.history)).toEqual([])
  })
})

describe('guardrail definitions', () => {
  it('duplicate names are invalid_options, on the runtime and between the runtime and an exec', () => {
    const a = defineGuardrail({ name: 'same', check: () => undefined })
    const b = defineGuardrail({ name: 'same', check: () => undefined })
    expect(() => runtimeWith({ guardrails: { input: [a, b] } })).toThrow(/two guardrails are named "same"/)
    const runtime = runtimeWith({ guardrails: { input: [a] } })
    expect(() => runtime.exec('x', { guardrails: { input: [b] } })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    )
    expect(() => runtime.exec('x', { guardrails: { tools: [a as never] } })).toThrow(/a tool guardrail/)
    expect(() => defineGuardrail({ name: '', check: () => undefined })).toThrow(/guardrail.name/)
  })
})
