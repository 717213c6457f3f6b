import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'
import { resultText, toolResults } from '../support/tool-results.js'

function setup(turns: Parameters<typeof scripted>[0]) {
  const ran: { service: string; replicas: number }[] = []
  const scale = defineTool({
    name: 'scale',
    description: 'Scale a service',
    parameters: z.object({ service: z.string(), replicas: z.number().int().min(0).max(10) }),
    needsApproval: true,
    execute: (args) => {
      ran.push(args)
      return `${args.service} at ${args.replicas}`
    },
  })
  const runtime = new Runtime({ provider: scripted(turns), model: 'm' })
  return { runtime, scale, ran }
}

const twoCalls = calls(
  { name: 'scale', args: { service: 'api', replicas: 3 }, id: 'a' },
  { name: 'scale', args: { service: 'db', replicas: 2 }, id: 'b' },
)

describe('runtime.resume decisions', () => {
  it('a rejection via resume answers the call with "rejected: {reason}" and the loop goes on to the model', async () => {
    const { runtime, scale, ran } = setup([
      calls({ name: 'scale', args: { service: 'api', replicas: 3 }, id: 'a' }),
      'ok, not scaling',
    ])
    const paused = await runtime.exec('scale api', { tools: [scale] })
    expect(paused.status).toBe('paused')
    const { events, result } = await collect(
      runtime.resume(
        paused.pending!.state,
        { reject: [{ toolCallId: 'a', reason: 'budget freeze' }] },
        { tools: [scale] },
      ),
    )
    expect(result.status).toBe('completed')
    expect(result.text).toBe('ok, not scaling')
    expect(ran).toEqual([])
    expect(resultText(toolResults(result)[0]!)).toBe('rejected: budget freeze')
    expect(result.receipts.map((r) => r.status)).toEqual(['rejected'])
    expect(events.some((e) => e.type === 'tool_end' && e.receipt.status === 'rejected')).toBe(true)
    expect(historyProblems(result.history)).toEqual([])
    // The paused turn is closed by its turn_end (iteration 1) before the next model call starts.
    const turns = events
      .filter((e) => e.type === 'turn_start' || e.type === 'turn_end')
      .map((e) => `${e.type}:${'iteration' in e ? e.iteration : ''}`)
    expect(turns).toEqual(['turn_end:1', 'turn_start:2', 'turn_end:2'])
  })

  it('deciding one of two pending calls leaves the exec paused with the other pending, and deciding the other completes it', async () => {
    const { runtime, scale, ran } = setup([twoCalls, 'both handled'])
    const first = await runtime.exec('scale both', { tools: [scale] })
    expect(first.status).toBe('paused')
    expect(first.pending!.approvals.map((a) => a.toolCallId)).toEqual(['a', 'b'])

    const second = await runtime.resume(first.pending!.state, { approve: ['a'] }, { tools: [scale] })
    expect(second.status).toBe('paused')
    expect(second.pending!.approvals.map((a) => a.toolCallId)).toEqual(['b'])
    expect(ran).toEqual([{ service: 'api', replicas: 3 }])
    expect(second.iterationsUsed).toBe(1)

    const third = await runtime.resume(
      JSON.parse(JSON.stringify(second.pending!.state)),
      { reject: [{ toolCallId: 'b', reason: 'not now' }] },
      { tools: [scale] },
    )
    expect(third.status).toBe('completed')
    expect(third.text).toBe('both handled')
    expect(third.iterationsUsed).toBe(2)
    expect(ran).toEqual([{ service: 'api', replicas: 3 }])
    expect(toolResults(third).map((r) => [r.toolCallId, resultText(r)])).toEqual([
      ['a', 'api at 3'],
      ['b', 'rejected: not now'],
    ])
    expect(historyProblems(third.history)).toEqual([])
  })

  it('deciding only the second of two pending calls keeps the first pending and runs neither out of order', async () => {
    const { runtime, scale, ran } = setup([twoCalls, 'done'])
    const first = await runtime.exec('scale both', { tools: [scale] })
    const second = await runtime.resume(first.pending!.state, { approve: ['b'] }, { tools: [scale] })
    expect(second.status).toBe('paused')
    expect(second.pending!.approvals.map((a) => a.toolCallId)).toEqual(['a'])
    expect(ran).toEqual([])
    const third = await runtime.resume(second.pending!.state, { approve: ['a'] }, { tools: [scale] })
    expect(third.status).toBe('completed')
    expect(ran.map((r) => r.service)).toEqual(['api', 'db'])
  })

  it('an edit that fails the schema gives an invalid_arguments error result and does not run the tool', async () => {
    const { runtime, scale, ran } = setup([
      calls({ name: 'scale', args: { service: 'api', replicas: 3 }, id: 'a' }),
      'noted',
    ])
    const paused = await runtime.exec('scale', { tools: [scale] })
    const result = await runtime.resume(
      paused.pending!.state,
      { edit: [{ toolCallId: 'a', args: { service: 'api', replicas: 99 } }] },
      { tools: [scale] },
    )
    expect(result.status).toBe('completed')
    expect(ran).toEqual([])
    expect(result.receipts.map((r) => r.status)).toEqual(['invalid_arguments'])
    const text = resultText(toolResults(result)[0]!)
    expect(text).toContain('invalid arguments for scale')
    expect(text).toContain('replicas')
  })

  it("a valid edit runs the tool with the new arguments, not the model's", async () => {
    const { runtime, scale, ran } = setup([
      calls({ name: 'scale', args: { service: 'api', replicas: 3 }, id: 'a' }),
      'noted',
    ])
    const paused = await runtime.exec('scale', { tools: [scale] })
    const result = await runtime.resume(
      paused.pending!.state,
      { edit: [{ toolCallId: 'a', args: { service: 'api', replicas: 1 } }] },
      { tools: [scale] },
    )
    expect(result.status).toBe('completed')
    expect(ran).toEqual([{ service: 'api', replicas: 1 }])
    expect(resultText(toolResults(result)[0]!)).toBe('api at 1')
    expect(result.receipts[0]!.signature).toBe('scale:{"replicas":1,"service":"api"}')
  })

  it('approving and rejecting the same call in one resume is refused as invalid_state, and nothing runs', async () => {
    const { runtime, scale, ran } = setup([
      calls({ name: 'scale', args: { service: 'api', replicas: 3 }, id: 'a' }),
      'x',
    ])
    const paused = await runtime.exec('scale', { tools: [scale] })
    expect(() =>
      runtime.resume(paused.pending!.state, { approve: ['a'], reject: [{ toolCallId: 'a' }] }, { tools: [scale] }),
    ).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringContaining('decided more than once') }),
    )
    expect(ran).toEqual([])
  })

  it('a decision naming a call that is not waiting is refused as invalid_state', async () => {
    const { runtime, scale } = setup([calls({ name: 'scale', args: { service: 'api', replicas: 3 }, id: 'a' })])
    const paused = await runtime.exec('scale', { tools: [scale] })
    expect(() => runtime.resume(paused.pending!.state, { approve: ['nope'] }, { tools: [scale] })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringContaining('nope') }),
    )
  })
})

describe('needsApproval as a predicate', () => {
  it('only calls whose arguments satisfy the predicate pause, and the earlier calls of the same message have run by then', async () => {
    const order: string[] = []
    const transfer = defineTool({
      name: 'transfer',
      description: 'Move money',
      parameters: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > 100,
      execute: ({ amount }) => {
        order.push(`transfer ${amount}`)
        return 'moved'
      },
    })
    const runtime = new Runtime({
      provider: scripted([
        calls(
          { name: 'transfer', args: { amount: 5 }, id: 'small' },
          { name: 'transfer', args: { amount: 50 }, id: 'medium' },
          { name: 'transfer', args: { amount: 5000 }, id: 'big' },
          { name: 'transfer', args: { amount: 7 }, id: 'after' },
        ),
        'finished',
      ]),
      model: 'm',
    })
    const { events, result: paused } = await collect(runtime.exec('pay', { tools: [transfer] }))
    expect(paused.status).toBe('paused')
    // Without an approve handler the stream still announces what waits, just before agent_end.
    const announced = events.at(-2)!
    expect(announced.type).toBe('approval_required')
    expect(announced.type === 'approval_required' && announced.approvals.map((a) => a.toolCallId)).toEqual(['big'])
    expect(paused.pending!.approvals.map((a) => [a.toolCallId, a.args])).toEqual([['big', { amount: 5000 }]])
    expect(order).toEqual(['transfer 5', 'transfer 50'])
    // Answered calls are in the paused history; the big one and the one after it wait.
    expect(toolResults(paused).map((r) => r.toolCallId)).toEqual(['small', 'medium'])
    expect(paused.pending!.state.remaining).toEqual(['big', 'after'])

    const done = await runtime.resume(paused.pending!.state, { approve: ['big'] }, { tools: [transfer] })
    expect(done.status).toBe('completed')
    expect(order).toEqual(['transfer 5', 'transfer 50', 'transfer 5000', 'transfer 7'])
    expect(historyProblems(done.history)).toEqual([])
  })
})
