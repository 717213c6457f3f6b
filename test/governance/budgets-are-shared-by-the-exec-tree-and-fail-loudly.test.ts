import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'
import { sleep } from '../support/tool-results.js'

const noop = defineTool({
  name: 'noop',
  description: 'Does nothing',
  parameters: z.object({ i: z.number() }),
  execute: ({ i }) => `noop ${i}`,
})

describe('tree-wide budgets', () => {
  it('maxTotalIterations counts the model calls of nested execs, and the breach fails both the child and the root with budget_exceeded naming maxTotalIterations', async () => {
    const children: ExecResult[] = []
    const delegate = defineTool({
      name: 'delegate',
      description: 'Opens a nested exec',
      parameters: z.object({}),
      execute: async () => {
        const child = await runtime.exec('sub task', { tools: [noop] })
        children.push(child)
        return `child ${child.status}`
      },
    })
    const provider = scripted([
      calls({ name: 'delegate' }), // root, model call 1
      calls({ name: 'noop', args: { i: 1 } }), // child, model call 2
      calls({ name: 'noop', args: { i: 2 } }), // child, model call 3
      'child would answer here', // model call 4: over budget
      'root would answer here',
    ])
    const runtime = new Runtime({ provider, model: 'm', maxTotalIterations: 3 })
    const { events, result } = await collect(runtime.exec('go', { tools: [delegate] }))
    expect(provider.requests).toHaveLength(3)
    expect(children[0]!.status).toBe('failed')
    expect(children[0]!.error?.code).toBe('budget_exceeded')
    expect(children[0]!.iterationsUsed).toBe(2)
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toContain('maxTotalIterations')
    expect(result.error?.message).toContain('3')
    expect(result.iterationsUsed).toBe(1) // the root's own calls; the tree used 3
    // Never a silent stop: the stream ends with agent_end carrying the same failure.
    const last = events.at(-1)!
    expect(last.type === 'agent_end' && last.result.error?.code).toBe('budget_exceeded')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('maxTotalTokens stops the tree before the model call that would start over the budget, naming maxTotalTokens', async () => {
    const provider = scripted([
      { ...calls({ name: 'noop', args: { i: 1 } }), usage: { input: 100, output: 20 } },
      { ...calls({ name: 'noop', args: { i: 2 } }), usage: { input: 150, output: 30 } },
      'too late',
    ])
    const result = await new Runtime({ provider, model: 'm', maxTotalTokens: 300 }).exec('go', { tools: [noop] })
    expect(provider.requests).toHaveLength(2)
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toMatch(/maxTotalTokens/)
    expect(result.error?.message).toMatch(/300/)
    expect(result.totalUsage.total).toBe(300)
  })

  it('deadlineMs fails the exec at the first model call after the deadline, naming deadlineMs', async () => {
    const slow = defineTool({
      name: 'slow',
      description: 'Takes its time',
      parameters: z.object({}),
      execute: async () => (await sleep(120), 'late'),
    })
    const provider = scripted([calls({ name: 'slow' }), 'too late'])
    const result = await new Runtime({ provider, model: 'm', deadlineMs: 60 }).exec('go', { tools: [slow] })
    expect(provider.requests).toHaveLength(1)
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toMatch(/deadlineMs/)
  })

  it('a run within its budgets completes normally', async () => {
    const provider = scripted([calls({ name: 'noop', args: { i: 1 } }), 'fine'])
    const result = await new Runtime({
      provider,
      model: 'm',
      maxTotalIterations: 2,
      maxTotalTokens: 1000,
      deadlineMs: 10_000,
    }).exec('go', { tools: [noop] })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('fine')
  })

  it('budget counters continue across a pause and resume', async () => {
    const guarded = defineTool({
      name: 'guarded',
      description: 'Needs approval',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'ran',
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'guarded', id: 'g' }), calls({ name: 'noop', args: { i: 1 } }), 'over']),
      model: 'm',
      maxTotalIterations: 2,
    })
    const paused = await runtime.exec('go', { tools: [guarded, noop] })
    expect(paused.status).toBe('paused')
    const result = await runtime.resume(
      JSON.parse(JSON.stringify(paused.pending!.state)),
      { approve: ['g'] },
      { tools: [guarded, noop] },
    )
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.iterationsUsed).toBe(2)
  })
})
