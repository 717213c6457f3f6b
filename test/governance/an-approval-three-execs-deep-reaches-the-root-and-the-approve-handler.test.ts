import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, exec, type AgentEvent, type ApprovalDecision, type ApprovalRequest } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'
import { resultText, toolEnds } from '../support/tool-results.js'

/**
 * Three execs deep: the root calls `outer`, whose body opens an exec (runtime.exec) that calls
 * `middle`, whose body opens an exec (the module-level exec) that calls `wire_money`
 * (needsApproval) at depth 2.
 */
function deepTree(decide: (request: ApprovalRequest) => ApprovalDecision) {
  const execIds: string[] = []
  const ran: unknown[] = []
  const requests: ApprovalRequest[] = []
  const wire = defineTool({
    name: 'wire_money',
    description: 'Send money',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: (args) => {
      ran.push(args)
      return `sent ${args.amount} to ${args.to}`
    },
  })
  const middle = defineTool({
    name: 'middle',
    description: 'Delegates to a payer',
    parameters: z.object({}),
    // The module-level exec(): it finds the running exec (and its runtime) through the frame.
    execute: async () => {
      const run = exec('pay bob', { tools: [wire] })
      execIds.push(run.execId)
      return (await run).text
    },
  })
  const outer = defineTool({
    name: 'outer',
    description: 'Delegates to a manager',
    parameters: z.object({}),
    execute: async () => {
      const run = runtime.exec('manage', { tools: [middle] })
      execIds.push(run.execId)
      return (await run).text
    },
  })
  // One script serves the whole tree: sequential execution makes the order of model calls fixed.
  const provider = scripted([
    calls({ name: 'outer' }),
    calls({ name: 'middle' }),
    calls({ name: 'wire_money', args: { to: 'bob', amount: 42 }, id: 'wire-1' }),
    'depth 2 done',
    'depth 1 done',
    'root done',
  ])
  const runtime = new Runtime({
    provider,
    model: 'm',
    approve: async (request) => {
      requests.push(request)
      return decide(request)
    },
  })
  return { runtime, outer, execIds, ran, requests }
}

describe('approvals decided in process at any depth', () => {
  it('an approval requested at depth 2 reaches the root stream with the ancestry path and the inner call, and an approval runs the tool', async () => {
    const tree = deepTree(() => ({ approved: true }))
    const run = tree.runtime.exec('start', { tools: [tree.outer] })
    const { events, result } = await collect(run)
    expect(result.status).toBe('completed')
    expect(result.text).toBe('root done')

    const asked = events.filter(
      (e): e is Extract<AgentEvent, { type: 'approval_required' }> => e.type === 'approval_required',
    )
    expect(asked).toHaveLength(1)
    const request = asked[0]!.approvals[0]!
    const [depth1, depth2] = [tree.execIds[0]!, tree.execIds[1]!]
    expect(request.path).toEqual([run.execId, depth1, depth2])
    expect(request).toMatchObject({
      toolCallId: 'wire-1',
      toolName: 'wire_money',
      args: { to: 'bob', amount: 42 },
      depth: 2,
      execId: depth2,
    })
    expect(asked[0]!.depth).toBe(2)
    // The handler got the same request the stream shows.
    expect(tree.requests).toEqual([request])
    expect(tree.ran).toEqual([{ to: 'bob', amount: 42 }])
    const end = toolEnds(events, 'wire_money')[0]!
    expect(end.isError).toBe(false)
    expect(resultText(end.result)).toBe('sent 42 to bob')
    expect(end.receipt.status).toBe('ok')
  })

  it('a rejection by the approve handler gives the inner call the error result "rejected: {reason}" and never runs it', async () => {
    const tree = deepTree(() => ({ approved: false, reason: 'over the limit' }))
    const { events, result } = await collect(tree.runtime.exec('start', { tools: [tree.outer] }))
    expect(result.status).toBe('completed')
    expect(tree.requests).toHaveLength(1)
    expect(tree.ran).toEqual([])
    const end = toolEnds(events, 'wire_money')[0]!
    expect(end.isError).toBe(true)
    expect(resultText(end.result)).toBe('rejected: over the limit')
    expect(end.receipt.status).toBe('rejected')
    expect(end.depth).toBe(2)
  })

  it('an approval handler may edit the arguments, which are validated again before the call runs', async () => {
    const edited = deepTree(() => ({ approved: true, args: { to: 'bob', amount: 7 } }))
    const ok = await collect(edited.runtime.exec('start', { tools: [edited.outer] }))
    expect(edited.ran).toEqual([{ to: 'bob', amount: 7 }])
    expect(resultText(toolEnds(ok.events, 'wire_money')[0]!.result)).toBe('sent 7 to bob')

    const invalid = deepTree(() => ({ approved: true, args: { to: 'bob', amount: 'lots' } }))
    const bad = await collect(invalid.runtime.exec('start', { tools: [invalid.outer] }))
    expect(invalid.ran).toEqual([])
    const end = toolEnds(bad.events, 'wire_money')[0]!
    expect(end.receipt.status).toBe('invalid_arguments')
    expect(resultText(end.result)).toContain('amount')
  })
})
