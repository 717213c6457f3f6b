import type { AgentEvent } from '@nestor/core'
import { ApprovalGate, runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
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

  it('refuses a timeoutMs that is not a positive number', () => {
    for (const timeoutMs of [0, -1, Number.NaN, Infinity])
      expect(() => new ApprovalGate({ timeoutMs })).toThrow(expect.objectContaining({ code: 'invalid_options' }))
  })
})
