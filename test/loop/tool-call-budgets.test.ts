import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'
import { thrown } from '../support/thrown.js'

const ran: number[] = []
const noop = defineTool({
  name: 'noop',
  description: 'Does nothing',
  parameters: z.object({ i: z.number() }),
  execute: ({ i }) => (ran.push(i), `noop ${i}`),
})
const noopCall = (...ids: number[]) => calls(...ids.map((i) => ({ name: 'noop', args: { i } })))

describe('tool call budgets', () => {
  it('maxToolCalls lets that many calls run; the next is skipped with a result and the exec fails budget_exceeded', async () => {
    ran.length = 0
    const provider = scripted([noopCall(1), noopCall(2, 3), 'never'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [noop], maxToolCalls: 2 })
    expect(ran).toEqual([1, 2])
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toContain('maxToolCalls')
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'ok', 'skipped'])
    expect(provider.requests).toHaveLength(2)
    expect(historyProblems(result.history)).toEqual([])
  })

  it("an exec's maxToolCalls is inherited by its nested execs, which may set their own", async () => {
    ran.length = 0
    const children: ExecResult[] = []
    const delegate = defineTool({
      name: 'delegate',
      description: 'Opens a nested exec',
      parameters: z.object({ own: z.number().optional() }),
      execute: async ({ own }) => {
        const child = await runtime.exec('sub', { tools: [noop], ...(own !== undefined && { maxToolCalls: own }) })
        children.push(child)
        return `child ${child.status}`
      },
    })
    const provider = scripted([
      calls({ name: 'delegate' }),
      noopCall(1, 2, 3), // the child inherits 2
      calls({ name: 'delegate', args: { own: 5 } }),
      noopCall(4, 5, 6), // a child with its own budget
      'child done',
      'root done',
    ])
    const runtime = new Runtime({ provider, model: 'm' })
    const result = await runtime.exec('go', { tools: [delegate], maxToolCalls: 2 })
    expect(children.map((c) => c.error?.code ?? c.status)).toEqual(['budget_exceeded', 'completed'])
    expect(ran).toEqual([1, 2, 4, 5, 6])
    expect(result.status).toBe('completed')
  })

  it('maxTotalToolCalls counts the calls of the whole tree and stops the child and the root', async () => {
    ran.length = 0
    const children: ExecResult[] = []
    const delegate = defineTool({
      name: 'delegate',
      description: 'Opens a nested exec',
      parameters: z.object({}),
      execute: async () => {
        const child = await runtime.exec('sub', { tools: [noop] })
        children.push(child)
        return `child ${child.status}`
      },
    })
    const provider = scripted([
      calls({ name: 'delegate' }), // tree call 1
      noopCall(1), // tree call 2
      noopCall(2), // tree call 3: over
      calls({ name: 'delegate' }), // over
      'never',
    ])
    const runtime = new Runtime({ provider, model: 'm', maxTotalToolCalls: 2 })
    const result = await runtime.exec('go', { tools: [delegate] })
    expect(ran).toEqual([1])
    expect(children[0]?.error?.code).toBe('budget_exceeded')
    expect(children[0]?.error?.message).toContain('maxTotalToolCalls')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toContain('maxTotalToolCalls')
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'skipped'])
    expect(historyProblems(result.history)).toEqual([])
  })

  it('parallel calls cannot overshoot the budget together', async () => {
    ran.length = 0
    const provider = scripted([noopCall(1, 2, 3), 'never'])
    const result = await new Runtime({ provider, model: 'm', toolExecution: 'parallel' }).exec('go', {
      tools: [noop],
      maxToolCalls: 2,
    })
    expect(ran).toEqual([1, 2])
    expect(result.error?.code).toBe('budget_exceeded')
  })

  it.each([
    ['maxToolCalls', -1],
    ['maxToolCalls', 1.5],
    ['maxTotalToolCalls', Infinity],
  ])('%s %s on the runtime is invalid_options naming the key', (key, value) => {
    expect(() => new Runtime({ provider: scripted(['x']), model: 'm', [key]: 0 })).not.toThrow()
    const error = thrown(() => new Runtime({ provider: scripted(['x']), model: 'm', [key]: value }))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain(key)
  })

  it('maxToolCalls on an exec is checked too', () => {
    const runtime = new Runtime({ provider: scripted(['x']), model: 'm' })
    expect(() => runtime.exec('go', { maxToolCalls: 3 })).not.toThrow()
    const error = thrown(() => runtime.exec('go', { maxToolCalls: '3' as unknown as number }))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain('maxToolCalls')
  })

  it('both counters continue across a pause and resume', async () => {
    ran.length = 0
    const guarded = defineTool({
      name: 'guarded',
      description: 'Needs approval',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'ran',
    })
    const tools = [noop, guarded]
    // The per-exec cap travels in the state; the tree's is the resuming runtime's, its count the state's.
    for (const [limits, onResume] of [
      [{ maxToolCalls: 2 }, {}],
      [{ maxTotalToolCalls: 2 }, { maxTotalToolCalls: 2 }],
    ] as const) {
      const provider = scripted([noopCall(1), calls({ name: 'guarded', id: 'g' })])
      const paused = await new Runtime({ provider, model: 'm', ...limits }).exec('go', { tools })
      expect(paused.status).toBe('paused')
      const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
      const runtime = new Runtime({ provider: scripted([noopCall(2), 'never']), model: 'm', ...onResume })
      const result = await runtime.resume(state, { approve: ['g'] }, { tools })
      expect(result.error?.code).toBe('budget_exceeded')
      expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'ok', 'skipped'])
    }
    expect(ran).toEqual([1, 1])
  })
})
