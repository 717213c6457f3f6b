import { NestorError, Runtime, defineTool, type AgentEvent } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/provider-kit'
import { scripted } from '@nestor/providers'
import { ApprovalGate, runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { jsonPost, serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function waitingRun(gate: ApprovalGate) {
  const runtime = tripRuntime({ approve: gate.approve })
  const { url, close } = await serve(
    toNodeListener(runRoutes({ runtime, approvals: gate, authorize: () => true, start: () => startTrip(runtime) })),
  )
  closers.push(close)
  const { execId } = (await (await fetch(`${url}/runs`, jsonPost({ input: 'go' }))).json()) as { execId: string }
  const events: AgentEvent[] = []
  const collected = (async () => {
    for await (const event of runtime.attach(execId) as AsyncIterable<AgentEvent>) events.push(event)
  })()
  return { url, execId, events, collected }
}

describe('ApprovalGate', () => {
  it('drops the waiting call of a run that was aborted: the ended run lists nothing pending', async () => {
    const gate = new ApprovalGate()
    const { url, execId, collected } = await waitingRun(gate)
    while (gate.pending(execId).length === 0) await new Promise((r) => setTimeout(r, 10))
    expect((await fetch(`${url}/runs/${execId}/abort`, jsonPost({ reason: 'user left' }))).status).toBe(202)
    await collected
    expect(await (await fetch(`${url}/runs/${execId}`)).json()).toMatchObject({ status: 'aborted', pending: [] })
    expect(gate.decide(execId, 'call_save', { approved: true })).toBe(false)
  })

  it('rejects a call nobody decides within timeoutMs, and the run goes on to its end', async () => {
    const gate = new ApprovalGate({ timeoutMs: 50 })
    const { url, execId, events, collected } = await waitingRun(gate)
    await collected
    const saved = events.find((e) => e.type === 'tool_end' && e.toolName === 'save_brief')
    expect(saved).toMatchObject({ isError: true, receipt: { status: 'rejected' } })
    expect(JSON.stringify(saved)).toContain('approval timed out')
    expect(await (await fetch(`${url}/runs/${execId}`)).json()).toMatchObject({ status: 'completed', pending: [] })
  })

  it('a question nobody answers within timeoutMs gets input_unavailable, and the run goes on to its end', async () => {
    const gate = new ApprovalGate({ timeoutMs: 1 })
    const bill = defineTool({
      name: 'bill',
      description: 'Bills an account',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        try {
          return `billed ${(await ctx.ask('Which account?', z.object({ account: z.string() }))).account}`
        } catch (error) {
          return `not billed: ${NestorError.isInstance(error) ? error.code : 'other'}`
        }
      },
    })
    const provider = scripted((r: ModelRequest) =>
      r.messages.some((m) => m.role === 'toolResult')
        ? 'done'
        : { content: [{ type: 'toolCall', id: 'call_bill', name: 'bill', arguments: {} }] },
    )
    const runtime = new Runtime({ provider, model: 'm', ask: gate.ask })
    const run = runtime.exec('bill me', { tools: [bill] })
    const result = await run
    expect(result.status).toBe('completed')
    expect(result.history.find((m) => m.role === 'toolResult')).toMatchObject({
      content: [{ text: 'not billed: input_unavailable' }],
    })
    expect(gate.inputs(run.execId)).toEqual([])
  })

  it('refuses a timeoutMs that is not a positive number', () => {
    for (const timeoutMs of [0, -1, Number.NaN, Infinity])
      expect(() => new ApprovalGate({ timeoutMs })).toThrow(expect.objectContaining({ code: 'invalid_options' }))
  })
})
