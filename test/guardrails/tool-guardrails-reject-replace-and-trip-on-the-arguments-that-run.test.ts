import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineGuardrail, defineTool, exec, memoryJournal, guardrails, type NestorError } from '@nestor/core'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'
import { collect, historyProblems } from '../support/run.js'

const wire = useOpenAIWire()
const runtimeWith = (options: Partial<ConstructorParameters<typeof Runtime>[0]> = {}) =>
  new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini', ...options })

const refunds: number[] = []
const refund = defineTool({
  name: 'refund',
  description: 'Refunds an amount',
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => (refunds.push(amount), `refunded ${amount} to card 4111-1111-1111-1111`),
})
const limitAmount = defineGuardrail({
  name: 'limit_amount',
  before: (call) =>
    (call.arguments as { amount: number }).amount > 100 ? { reject: 'refunds over 100 need a manager' } : undefined,
})
const maskCards = defineGuardrail({
  name: 'mask_cards',
  after: (_call, result) => {
    const said = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
    return /\d{4}-\d{4}-\d{4}-\d{4}/.test(said)
      ? { replace: said.replace(/\d{4}-\d{4}-\d{4}-/, '****-****-****-') }
      : undefined
  },
})

describe('tool guardrails', () => {
  it('before sees the arguments an approver edited, reject is an error result the model reads, after replaces a result; receipts carry the verdicts', async () => {
    refunds.length = 0
    wire.server.enqueue(
      { body: toolCalls({ id: 'c1', name: 'refund', args: { amount: 50 } }) },
      { body: toolCalls({ id: 'c2', name: 'refund', args: { amount: 20 } }) },
      { body: text('done') },
    )
    // The approver raises the first refund over the limit and passes the second as asked.
    const approve = (request: { args: Record<string, unknown> }) =>
      request.args['amount'] === 50 ? { approved: true as const, args: { amount: 500 } } : true
    const runtime = runtimeWith({ approve, guardrails: { tools: [limitAmount, maskCards] } })
    const { events, result } = await collect(runtime.exec('refund me', { tools: [refund] }))
    expect(result.status).toBe('completed')
    expect(refunds).toEqual([20])
    const results = result.history.filter((m) => m.role === 'toolResult')
    expect(results.map((m) => [m.toolCallId, m.isError, m.content[0]?.type === 'text' && m.content[0].text])).toEqual([
      ['c1', true, 'rejected by guardrail limit_amount: refunds over 100 need a manager'],
      ['c2', false, 'refunded 20 to card ****-****-****-1111'],
    ])
    expect(result.receipts.map((r) => [r.status, r.guardrails])).toEqual([
      [
        'rejected',
        [{ name: 'limit_amount', phase: 'before', verdict: 'reject', reason: 'refunds over 100 need a manager' }],
      ],
      [
        'ok',
        [
          { name: 'limit_amount', phase: 'before', verdict: 'pass' },
          { name: 'mask_cards', phase: 'after', verdict: 'replace' },
        ],
      ],
    ])
    const verdicts = events.flatMap((e) => (e.type === 'guardrail' ? [[e.toolCallId, e.phase, e.verdict]] : []))
    expect(verdicts).toEqual([
      ['c1', 'before', 'reject'],
      ['c2', 'before', 'pass'],
      ['c2', 'after', 'replace'],
    ])
    expect(JSON.stringify(events)).not.toContain('4111-1111-1111-1111')
  })

  it('a before tripwire fails the exec guardrail_tripped: the body never runs, every call is answered', async () => {
    refunds.length = 0
    wire.server.enqueue({
      body: toolCalls(
        { id: 'c1', name: 'refund', args: { amount: 5 } },
        { id: 'c2', name: 'refund', args: { amount: 6 } },
      ),
    })
    const stop = defineGuardrail({ name: 'frozen', before: () => ({ tripwire: true, reason: 'account frozen' }) })
    const result = await runtimeWith({ approve: () => true }).exec('refund', {
      tools: [refund],
      guardrails: { tools: [stop] },
    })
    expect(result.status).toBe('failed')
    expect((result.error as NestorError).guardrail).toEqual({ name: 'frozen', kind: 'tool', reason: 'account frozen' })
    expect(refunds).toEqual([])
    expect(historyProblems(result.history)).toEqual([])
    expect(result.history.filter((m) => m.role === 'toolResult')).toHaveLength(2)
  })

  it('an after tripwire withholds the result from the history and fails the exec', async () => {
    wire.server.enqueue({ body: toolCalls({ id: 'c1', name: 'refund', args: { amount: 5 } }) })
    const leak = defineGuardrail({ name: 'leak', after: () => ({ tripwire: true, reason: 'card number' }) })
    const result = await runtimeWith({ approve: () => true }).exec('refund', {
      tools: [refund],
      guardrails: { tools: [leak] },
    })
    expect(result.error?.code).toBe('guardrail_tripped')
    expect(JSON.stringify(result.history)).not.toContain('4111')
    expect(historyProblems(result.history)).toEqual([])
  })
})

describe('tool guardrails on a resumed exec', () => {
  it('a resume given the guardrails (from JSON, in a new runtime) checks the edited arguments before the call runs', async () => {
    refunds.length = 0
    wire.server.enqueue(
      { body: toolCalls({ id: 'c1', name: 'refund', args: { amount: 50 } }) },
      { body: text('a manager must approve it') },
    )
    const paused = await runtimeWith().exec('refund me', { tools: [refund], guardrails: { tools: [limitAmount] } })
    expect(paused.status).toBe('paused')
    const state = JSON.parse(JSON.stringify(paused.pending!.state))
    const result = await runtimeWith().resume(
      state,
      { edit: [{ toolCallId: 'c1', args: { amount: 500 } }] },
      { tools: [refund], guardrails: { tools: [limitAmount] } },
    )
    expect(result.status).toBe('completed')
    expect(refunds).toEqual([])
    expect(result.receipts.map((r) => [r.status, r.approval?.decision, r.guardrails?.[0]?.verdict])).toEqual([
      ['rejected', 'edited', 'reject'],
    ])
  })
})

describe('nesting', () => {
  it('runtime and exec guardrails apply in nested execs; inherit: false keeps one at its own level', async () => {
    const seen: string[] = []
    const everywhere = defineGuardrail({
      name: 'everywhere',
      check: (_t, ctx) => void seen.push(`everywhere@${ctx.depth}`),
    })
    const rootOnly = defineGuardrail({
      name: 'root_only',
      inherit: false,
      check: (_t, ctx) => void seen.push(`root_only@${ctx.depth}`),
    })
    const execOwn = defineGuardrail({ name: 'exec_own', check: (_t, ctx) => void seen.push(`exec_own@${ctx.depth}`) })
    const delegate = defineTool({
      name: 'delegate',
      description: 'Asks a helper',
      parameters: z.object({}),
      execute: async () => (await exec('help', { toolset: 'none' })).text,
    })
    wire.server.enqueue(
      { body: toolCalls({ id: 'c1', name: 'delegate' }) },
      { body: text('helped') },
      { body: text('all done') },
    )
    const runtime = runtimeWith({ guardrails: { input: [everywhere, rootOnly] } })
    const result = await runtime.exec('go', { tools: [delegate], guardrails: { input: [execOwn] } })
    expect(result.status).toBe('completed')
    expect(seen.sort()).toEqual(['everywhere@0', 'everywhere@1', 'exec_own@0', 'exec_own@1', 'root_only@0'])
  })
})

describe('guardrails.classifier', () => {
  const onTopic = () =>
    guardrails.classifier({ name: 'on_topic', instructions: 'Is the request about travel?', mode: 'blocking' })

  it('asks the model in a nested exec (events at depth 1, usage counted) and a replay asks no model again', async () => {
    wire.server.enqueue({ body: text('{"pass":false,"reason":"it is about cooking"}') })
    const journal = memoryJournal()
    const first = await collect(
      runtimeWith({ guardrails: { input: [onTopic()] } }).exec('a cake recipe?', { journal, runId: 'r1' }),
    )
    expect(first.result.status).toBe('failed')
    expect((first.result.error as NestorError).guardrail).toEqual({
      name: 'on_topic',
      kind: 'input',
      reason: 'it is about cooking',
    })
    expect(wire.server.requests).toHaveLength(1)
    expect(JSON.stringify(wire.server.requests[0]?.json)).toContain('Is the request about travel?')
    expect(first.events.some((e) => e.depth === 1 && e.type === 'turn_start')).toBe(true)
    expect(first.result.totalUsage.total).toBe(25)

    const replay = await collect(
      runtimeWith({ guardrails: { input: [onTopic()] } }).exec('a cake recipe?', { journal, runId: 'r1' }),
    )
    expect(wire.server.requests).toHaveLength(1)
    expect(replay.result.error?.message).toBe(first.result.error?.message)
  })

  it('in parallel with the first model call, both journaled: the replay makes no request', async () => {
    // The two requests race: the classifier's is the one that asks for typed output.
    wire.server.fallback = (request) =>
      JSON.stringify(request.json).includes('response_format')
        ? { body: text('{"pass":true,"reason":"travel"}') }
        : { body: text('Lisbon in May.') }
    const journal = memoryJournal()
    const travel = guardrails.classifier({ name: 'on_topic', instructions: 'Is the request about travel?' })
    const run = () =>
      runtimeWith({ guardrails: { input: [travel] } }).exec('When to visit Lisbon?', { journal, runId: 'r2' })
    const first = await run()
    expect([first.status, first.text, wire.server.requests.length]).toEqual(['completed', 'Lisbon in May.', 2])
    const replay = await run()
    expect([replay.status, replay.text, wire.server.requests.length]).toEqual(['completed', 'Lisbon in May.', 2])
  })
})
