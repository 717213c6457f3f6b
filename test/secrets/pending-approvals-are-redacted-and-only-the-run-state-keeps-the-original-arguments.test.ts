import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'

const SECRET = 'tok-55aa-do-not-print'

function setup() {
  const seen: string[] = []
  const transfer = defineTool({
    name: 'transfer',
    description: 'Move money with a token',
    parameters: z.object({ token: z.string(), note: z.object({ text: z.string() }) }),
    needsApproval: true,
    execute: ({ token }) => {
      seen.push(token)
      return 'moved'
    },
  })
  const provider = scripted([
    calls({ name: 'transfer', args: { token: SECRET, note: { text: `for ${SECRET}` } }, id: 't1' }),
    'done',
  ])
  const runtime = new Runtime({ provider, model: 'm', secrets: [SECRET], stateSecret: 'state-signing-key' })
  return { runtime, transfer, seen }
}

describe('paused calls and secrets', () => {
  it('result.pending.approvals and the approval_required event hold [REDACTED]; pending.state keeps the original arguments and resuming runs the tool with them', async () => {
    const { runtime, transfer, seen } = setup()
    const { events, result } = await collect(runtime.exec('pay', { tools: [transfer] }))
    expect(result.status).toBe('paused')
    const approvals = result.pending!.approvals
    expect(approvals.map((a) => a.toolCallId)).toEqual(['t1'])
    expect(approvals[0]!.args).toEqual({ token: '[REDACTED]', note: { text: 'for [REDACTED]' } })
    expect(JSON.stringify(approvals)).not.toContain(SECRET)
    const required = events.find(
      (e): e is Extract<AgentEvent, { type: 'approval_required' }> => e.type === 'approval_required',
    )!
    expect(required.approvals[0]!.args).toEqual(approvals[0]!.args)
    // The state is what resumes: it must keep the real arguments.
    expect(JSON.stringify(result.pending!.state)).toContain(SECRET)
    const resumed = await runtime.resume(result.pending!.state, { approve: ['t1'] }, { tools: [transfer] })
    expect(resumed.status).toBe('completed')
    expect(seen).toEqual([SECRET])
  })
})
