import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, memoryJournal, type RunState, type RuntimeOptions } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'
import { resultText, toolResults } from '../support/tool-results.js'

// The app's policy (beforeToolCall) caps a transfer at 100. An approver may edit the arguments:
// whichever way the decision arrives (a live handler, resume, a fork's edit), the edited call
// meets the policy before it runs. And only `approved === true` approves anything.

function bank() {
  const sent: number[] = []
  const transfer = defineTool({
    name: 'transfer',
    description: 'Transfer money',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      sent.push(amount)
      return `sent ${amount}`
    },
  })
  const options = (more: Partial<RuntimeOptions> = {}): RuntimeOptions => ({
    provider: scripted([calls({ name: 'transfer', id: 't1', args: { amount: 50 } }), 'done']),
    model: 'm',
    hooks: {
      beforeToolCall: (call) =>
        (call.arguments as { amount: number }).amount > 100
          ? { block: true, reason: 'over the cap of 100' }
          : undefined,
    },
    ...more,
  })
  return { sent, transfer, options }
}

describe('an approver edit meets the beforeToolCall policy whichever way it arrives', () => {
  it('a live approve handler edit over the cap is blocked (the reference)', async () => {
    const { sent, transfer, options } = bank()
    const runtime = new Runtime(options({ approve: () => ({ approved: true, args: { amount: 5000 } }) }))
    const result = await runtime.exec('pay', { tools: [transfer] })
    expect(sent).toEqual([])
    expect(resultText(toolResults(result)[0]!)).toBe('blocked: over the cap of 100')
  })

  it('an edit through runtime.resume over the cap is blocked; one within it runs with the edited arguments', async () => {
    const { sent, transfer, options } = bank()
    const runtime = new Runtime(options())
    const paused = await runtime.exec('pay', { tools: [transfer] })
    expect(paused.status).toBe('paused')
    const state = paused.pending!.state
    const blocked = await runtime.resume(
      structuredClone(state),
      { edit: [{ toolCallId: 't1', args: { amount: 5000 } }] },
      {
        tools: [transfer],
      },
    )
    expect(sent).toEqual([])
    expect(blocked.receipts.map((r) => r.status)).toEqual(['rejected'])
    expect(resultText(toolResults(blocked)[0]!)).toBe('blocked: over the cap of 100')
    expect(historyProblems(blocked.history)).toEqual([])

    const second = new Runtime(options())
    const again = await second.exec('pay', { tools: [transfer] })
    const ran = await second.resume(
      again.pending!.state,
      { edit: [{ toolCallId: 't1', args: { amount: 80 } }] },
      {
        tools: [transfer],
      },
    )
    expect(ran.status).toBe('completed')
    expect(sent).toEqual([80])
  })

  it("a fork's decision edit over the cap is blocked", async () => {
    const { sent, transfer, options } = bank()
    const journal = memoryJournal()
    const runtime = new Runtime(options({ approve: () => true }))
    expect((await runtime.exec('pay', { tools: [transfer], journal, runId: 'pay-1' })).status).toBe('completed')
    expect(sent).toEqual([50])
    const fork = await runtime.fork(
      {
        journal,
        runId: 'pay-1',
        input: 'pay',
        at: 'root#1:decision:t1',
        edit: { decision: { approved: true, args: { amount: 5000 } } },
      },
      { runId: 'pay-2', tools: [transfer] },
    )
    expect(sent).toEqual([50])
    expect(fork.receipts.map((r) => r.status)).toEqual(['rejected'])
    expect(resultText(toolResults(fork)[0]!)).toBe('blocked: over the cap of 100')
  })
})

describe('only approved === true approves', () => {
  it.each([
    ['{ approved: "false" }', { approved: 'false' }],
    ['{ approved: "no" }', { approved: 'no' }],
    ['{ approved: 1 }', { approved: 1 }],
    ['"no"', 'no'],
    ['1', 1],
    ['nothing', undefined],
    ['an edit whose args are not an object', { approved: true, args: 'amount=5000' }],
  ])(
    'an approve handler answering %s runs nothing and fails the exec hook_error saying what it returned',
    async (_what, answer) => {
      const { sent, transfer, options } = bank()
      const runtime = new Runtime(options({ approve: () => answer as never }))
      const result = await runtime.exec('pay', { tools: [transfer] })
      expect(sent).toEqual([])
      expect(result.status).toBe('failed')
      expect(result.error?.code).toBe('hook_error')
      expect(result.error?.message).toMatch(/the approve handler for call t1 returned .*not/)
      expect(historyProblems(result.history)).toEqual([])
    },
  )

  it("a fork whose decision edit is { approved: 'false' } is refused invalid_options naming the step, before anything runs", async () => {
    const { sent, transfer, options } = bank()
    const journal = memoryJournal()
    const runtime = new Runtime(options({ approve: () => ({ approved: false, reason: 'no' }) }))
    await runtime.exec('pay', { tools: [transfer], journal, runId: 'pay-1' })
    const source = {
      journal,
      runId: 'pay-1',
      input: 'pay',
      at: 'root#1:decision:t1',
      edit: { decision: { approved: 'false' } } as never,
    }
    expect(() => runtime.fork(source, { runId: 'pay-2', tools: [transfer] })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining('root#1:decision:t1') }),
    )
    expect(sent).toEqual([])
  })

  it.each([
    ['edit args that are not an object', { edit: [{ toolCallId: 't1', args: 'amount=5000' }] }],
    ['edit without args', { edit: [{ toolCallId: 't1' }] }],
    ['a reject reason that is not a string', { reject: [{ toolCallId: 't1', reason: { why: 'no' } }] }],
    ['approve as a single id', { approve: 't1' }],
    ['decisions that are not an object', 'approve all'],
  ])('resume with %s is refused invalid_state and runs nothing', async (_what, decisions) => {
    const { sent, transfer, options } = bank()
    const runtime = new Runtime(options())
    const paused = await runtime.exec('pay', { tools: [transfer] })
    expect(() => runtime.resume(paused.pending!.state as RunState, decisions as never, { tools: [transfer] })).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    )
    expect(sent).toEqual([])
  })
})
