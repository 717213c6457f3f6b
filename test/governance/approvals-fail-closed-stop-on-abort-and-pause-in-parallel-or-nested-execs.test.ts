import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'
import { resultText, toolResults } from './support.js'

describe('approvals when things go wrong', () => {
  it('aborting the run while the approve handler never answers ends the exec as aborted without running the call', async () => {
    let ran = false
    const guarded = defineTool({
      name: 'guarded',
      description: 'g',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => ((ran = true), 'ran'),
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'guarded' }), 'never']),
      model: 'm',
      approve: () => new Promise(() => {}),
    })
    const run = runtime.exec('go', { tools: [guarded] })
    setTimeout(() => run.abort(), 30)
    const result = await Promise.race([
      run.result,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 3_000)),
    ])
    expect(result).not.toBe('hung')
    const done = result as ExecResult
    expect(done.status).toBe('aborted')
    expect(done.receipts.map((r) => r.status)).toEqual(['aborted'])
    expect(ran).toBe(false)
    expect(historyProblems(done.history)).toEqual([])
  })

  it('an approve handler that throws rejects the call (fail closed) and the loop goes on', async () => {
    let ran = false
    const guarded = defineTool({
      name: 'guarded',
      description: 'g',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => ((ran = true), 'ran'),
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'guarded' }), 'carried on']),
      model: 'm',
      approve: () => {
        throw new Error('approval service down')
      },
    })
    const result = await runtime.exec('go', { tools: [guarded] })
    expect(result.status).toBe('completed')
    expect(ran).toBe(false)
    expect(result.receipts[0]!.status).toBe('rejected')
    expect(resultText(toolResults(result)[0]!)).toBe('rejected: the approve handler failed: approval service down')
  })

  it('a needsApproval predicate that throws counts as needing approval: without a handler the exec pauses', async () => {
    const risky = defineTool({
      name: 'risky',
      description: 'r',
      parameters: z.object({}),
      needsApproval: () => {
        throw new Error('policy engine down')
      },
      execute: () => 'ran',
    })
    const result = await new Runtime({
      provider: scripted([calls({ name: 'risky', id: 'r1' }), 'x']),
      model: 'm',
    }).exec('go', { tools: [risky] })
    expect(result.status).toBe('paused')
    expect(result.pending!.approvals.map((a) => a.toolCallId)).toEqual(['r1'])
  })
})

describe('pauses beyond the sequential root', () => {
  it("with toolExecution 'parallel' the calls not needing approval run, the exec pauses on the other, and resume answers it in the model's order", async () => {
    const ran: string[] = []
    const task = defineTool({
      name: 'task',
      description: 't',
      parameters: z.object({ k: z.string() }),
      needsApproval: ({ k }) => k === 'b',
      execute: ({ k }) => (ran.push(k), `did ${k}`),
    })
    const runtime = new Runtime({
      provider: scripted([
        calls(
          { name: 'task', args: { k: 'a' }, id: 'a' },
          { name: 'task', args: { k: 'b' }, id: 'b' },
          { name: 'task', args: { k: 'c' }, id: 'c' },
        ),
        'done',
      ]),
      model: 'm',
      toolExecution: 'parallel',
    })
    const paused = await runtime.exec('go', { tools: [task] })
    expect(paused.status).toBe('paused')
    expect(ran.sort()).toEqual(['a', 'c'])
    expect(paused.pending!.state.remaining).toEqual(['b'])
    const done = await runtime.resume(paused.pending!.state, { approve: ['b'] }, { tools: [task] })
    expect(done.status).toBe('completed')
    expect(toolResults(done).map((r) => r.toolCallId)).toEqual(['a', 'c', 'b'])
    expect(historyProblems(done.history)).toEqual([])
  })

  it('a nested exec that needs an approval without a handler pauses the root: the call whose body opened it waits, and the root stream sees one approval_required, from the child', async () => {
    const guarded = defineTool({
      name: 'guarded',
      description: 'g',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'ran',
    })
    const outer = defineTool({
      name: 'outer',
      description: 'o',
      parameters: z.object({}),
      execute: async () => {
        const child = await runtime.exec('inner', { tools: [guarded] })
        return `child is ${child.status}`
      },
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'outer', id: 'o1' }), calls({ name: 'guarded', id: 'g1' }), 'root done']),
      model: 'm',
    })
    const { events, result } = await collect(runtime.exec('go', { tools: [outer] }))
    expect(result.status).toBe('paused')
    expect(result.pending!.state.remaining).toEqual(['o1'])
    expect(result.pending!.approvals).toEqual([
      expect.objectContaining({ toolCallId: 'g1', toolName: 'guarded', depth: 1 }),
    ])
    expect(toolResults(result)).toEqual([])
    expect(historyProblems(result.history.slice(0, -1))).toEqual([])
    expect(events.filter((e) => e.type === 'approval_required').map((e) => e.depth)).toEqual([1])
  })
})
