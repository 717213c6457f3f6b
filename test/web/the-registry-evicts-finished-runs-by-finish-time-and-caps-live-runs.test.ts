import { Runtime, type ApprovalDecision } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonPost, serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** The trip's approvals, answered when the test says. */
function heldApprovals() {
  const waiting: ((d: ApprovalDecision) => void)[] = []
  return { approve: () => new Promise<ApprovalDecision>((resolve) => waiting.push(resolve)), waiting }
}

describe('which finished runs stay attachable', () => {
  it('evicts the run that finished first, not the one that started first: a long run just ended stays', async () => {
    const held = heldApprovals()
    const runtime = tripRuntime({ approve: held.approve, retention: { maxFinishedRuns: 1 } })
    const long = startTrip(runtime)
    while (held.waiting.length === 0) await new Promise((r) => setTimeout(r, 5))
    const short = runtime.exec('hi', { tools: [], provider: scripted(['hello']) })
    await short
    held.waiting[0]?.({ approved: true })
    await long
    expect(runtime.attach(long.execId)).toBeDefined()
    expect(runtime.attach(short.execId)).toBeUndefined()
  })
})

describe('retention.maxLiveRuns', () => {
  it('ends one more root run at once with budget_exceeded, keeps it out of the registry, and lets a run in once one ended', async () => {
    const held = heldApprovals()
    const runtime = tripRuntime({ approve: held.approve, retention: { maxLiveRuns: 2 } })
    const first = startTrip(runtime)
    const second = startTrip(runtime)
    const third = startTrip(runtime)
    const refused = await third
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'budget_exceeded' } })
    expect(runtime.attach(third.execId)).toBeUndefined()
    while (held.waiting.length < 2) await new Promise((r) => setTimeout(r, 5))
    for (const decide of held.waiting) decide({ approved: true })
    await Promise.all([first, second])
    expect((await runtime.exec('hi', { tools: [], provider: scripted(['hello']) })).status).toBe('completed')
  })

  it('runRoutes answers 503 when the runtime keeps no more runs', async () => {
    const held = heldApprovals()
    const runtime = tripRuntime({ approve: held.approve, retention: { maxLiveRuns: 1 } })
    const { url, close } = await serve(
      toNodeListener(runRoutes({ runtime, authorize: () => true, start: () => startTrip(runtime) })),
    )
    closers.push(close)
    expect((await fetch(`${url}/runs`, jsonPost({ input: 'go' }))).status).toBe(201)
    const full = await fetch(`${url}/runs`, jsonPost({ input: 'go' }))
    expect(full.status).toBe(503)
    expect(await full.json()).toMatchObject({ error: { code: 'too_many_runs' } })
    while (held.waiting.length === 0) await new Promise((r) => setTimeout(r, 5))
    held.waiting[0]?.({ approved: true })
  })

  it('is an option the runtime checks', () => {
    expect(() => new Runtime({ provider: scripted(['x']), model: 'm', retention: { maxLiveRuns: -1 } })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    )
  })
})
