import { describe, expect, it } from 'vitest'
import { Runtime, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { thrown } from '../support/thrown.js'
import { transferTool } from '../support/transfer-tool.js'

async function paused(
  options: { stateSecret?: string; stateMaxAgeMs?: number } = {},
): Promise<{ state: RunState; ran: string[] }> {
  const ran: string[] = []
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'transfer', args: { amount: 500 }, id: 't1' })]),
    model: 'm',
    ...options,
  })
  const result = await runtime.exec('pay the invoice', { tools: [transferTool(ran)] })
  expect(result.status).toBe('paused')
  return { state: result.pending!.state, ran }
}

describe('a state the runtime cannot vouch for is refused', () => {
  it('a signed state on a runtime without stateSecret fails invalid_state and stays resumable where the secret is', async () => {
    const { state, ran } = await paused({ stateSecret: 'k-1' })
    expect(typeof state.signature).toBe('string')
    const unkeyed = new Runtime({ provider: scripted(['paid']), model: 'm' })
    const error = thrown(() => unkeyed.resume(state, { approve: ['t1'] }, { tools: [transferTool(ran)] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/signed.*no stateSecret/)
    expect(ran).toEqual([])
    // The refusal did not spend it: the runtime with the secret still resumes it once.
    const keyed = new Runtime({ provider: scripted(['paid']), model: 'm', stateSecret: 'k-1' })
    const result = await keyed.resume(state, { approve: ['t1'] }, { tools: [transferTool(ran)] })
    expect(result.status).toBe('completed')
    expect(ran).toEqual(['transfer 500'])
  })

  it('a state carries when it expires, a week from its pause unless stateMaxAgeMs says otherwise', async () => {
    const before = Date.now()
    const { state } = await paused()
    const week = 7 * 24 * 3600 * 1000
    expect(state.expiresAt).toBeGreaterThanOrEqual(before + week)
    expect(state.expiresAt).toBeLessThanOrEqual(Date.now() + week)
    expect((await paused({ stateMaxAgeMs: Infinity })).state.expiresAt).toBeUndefined()
  })

  it('a state past its expiry fails invalid_state "expired" on any runtime and runs nothing', async () => {
    const { state, ran } = await paused({ stateMaxAgeMs: 20 })
    await new Promise((resolve) => setTimeout(resolve, 40))
    const runtime = new Runtime({ provider: scripted(['paid']), model: 'm', stateMaxAgeMs: Infinity })
    const error = thrown(() => runtime.resume(state, { approve: ['t1'] }, { tools: [transferTool(ran)] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/expired/)
    expect(ran).toEqual([])
  })

  it('an expiry no date can hold (a forged state) still fails invalid_state "expired", not a RangeError', async () => {
    const { state, ran } = await paused()
    const runtime = new Runtime({ provider: scripted(['paid']), model: 'm' })
    const forged = { ...state, expiresAt: -8_640_000_000_000_001 }
    const error = thrown(() => runtime.resume(forged, { approve: ['t1'] }, { tools: [transferTool(ran)] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/expired at -8640000000000001/)
    expect(ran).toEqual([])
  })

  it('a claim hook is told when the state expires, so a shared store can drop the claim then', async () => {
    const { state, ran } = await paused({ stateMaxAgeMs: 3_600_000 })
    const asked: { stateId: string | undefined; expiresAt: number }[] = []
    const runtime = new Runtime({
      provider: scripted(['paid']),
      model: 'm',
      claimState: (stateId, { expiresAt }) => {
        asked.push({ stateId, expiresAt })
        return true
      },
    })
    await runtime.resume(state, { approve: ['t1'] }, { tools: [transferTool(ran)] })
    expect(asked).toEqual([{ stateId: state.stateId, expiresAt: state.expiresAt }])
  })

  it('the default store keeps a claim for as long as its state lives: spent until it expires, then expired', async () => {
    const { state, ran } = await paused({ stateMaxAgeMs: 1500 })
    const runtime = new Runtime({ provider: scripted(['paid', 'again']), model: 'm' })
    await runtime.resume(state, { approve: ['t1'] }, { tools: [transferTool(ran)] })
    expect(thrown(() => runtime.resume(state, { approve: ['t1'] }, { tools: [transferTool(ran)] })).message).toMatch(
      /already resumed/,
    )
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (state.expiresAt ?? 0) - Date.now() + 10)))
    expect(thrown(() => runtime.resume(state, { approve: ['t1'] }, { tools: [transferTool(ran)] })).message).toMatch(
      /expired/,
    )
    expect(ran).toEqual(['transfer 500'])
  })
})
