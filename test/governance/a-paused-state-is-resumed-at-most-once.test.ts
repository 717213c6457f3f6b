import { describe, expect, it } from 'vitest'
import { Runtime, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { transferTool } from '../support/transfer-tool.js'
import { thrown } from '../support/thrown.js'

function setup() {
  const ran: string[] = []
  return { ran, transfer: transferTool(ran) }
}

async function pausedState(transfer: ReturnType<typeof setup>['transfer']): Promise<RunState> {
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'transfer', args: { amount: 500 }, id: 't1' })]),
    model: 'm',
  })
  const result = await runtime.exec('pay the invoice', { tools: [transfer] })
  expect(result.status).toBe('paused')
  return result.pending!.state
}

describe('a paused state is spent once resumed', () => {
  it('resuming the same state a second time on the same runtime fails invalid_state "already resumed" and runs nothing', async () => {
    const { ran, transfer } = setup()
    const state = await pausedState(transfer)
    const runtime = new Runtime({ provider: scripted(['paid', 'paid again']), model: 'm' })
    expect((await runtime.resume(state, { approve: ['t1'] }, { tools: [transfer] })).status).toBe('completed')
    const error = thrown(() => runtime.resume(state, { approve: ['t1'] }, { tools: [transfer] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/already resumed/)
    expect(ran).toEqual(['transfer 500'])
  })

  it('a JSON copy of the state resumed on a fresh runtime is refused too: the state is spent, not the object', async () => {
    const { ran, transfer } = setup()
    const state = await pausedState(transfer)
    const stored = JSON.stringify(state)
    await new Runtime({ provider: scripted(['paid']), model: 'm' }).resume(
      JSON.parse(stored) as RunState,
      { approve: ['t1'] },
      { tools: [transfer] },
    )
    const fresh = new Runtime({ provider: scripted(['paid again']), model: 'm' })
    expect(
      thrown(() => fresh.resume(JSON.parse(stored) as RunState, { approve: ['t1'] }, { tools: [transfer] })).message,
    ).toMatch(/already resumed/)
    expect(ran).toEqual(['transfer 500'])
  })

  it('a hand-made state without a stateId is claimed by its content: the same content twice is refused', async () => {
    const { ran, transfer } = setup()
    const { stateId: _dropped, ...state } = await pausedState(transfer)
    const runtime = new Runtime({ provider: scripted(['paid', 'again']), model: 'm' })
    await runtime.resume(structuredClone(state) as RunState, { approve: ['t1'] }, { tools: [transfer] })
    expect(
      thrown(() => runtime.resume(structuredClone(state) as RunState, { approve: ['t1'] }, { tools: [transfer] })).code,
    ).toBe('invalid_state')
    expect(ran).toEqual(['transfer 500'])
  })

  it('a resume refused for a bad decision does not spend the state', async () => {
    const { ran, transfer } = setup()
    const state = await pausedState(transfer)
    const runtime = new Runtime({ provider: scripted(['paid']), model: 'm' })
    expect(thrown(() => runtime.resume(state, { approve: ['nope'] }, { tools: [transfer] })).code).toBe('invalid_state')
    expect((await runtime.resume(state, { approve: ['t1'] }, { tools: [transfer] })).status).toBe('completed')
    expect(ran).toEqual(['transfer 500'])
  })

  it('a resumed exec that pauses again gives a new state, which can be resumed once in its turn', async () => {
    const { ran, transfer } = setup()
    const first = await pausedState(transfer)
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'transfer', args: { amount: 20 }, id: 't2' }), 'all paid']),
      model: 'm',
    })
    const second = await runtime.resume(first, { approve: ['t1'] }, { tools: [transfer] })
    expect(second.status).toBe('paused')
    expect(second.pending!.state.stateId).not.toBe(first.stateId)
    expect((await runtime.resume(second.pending!.state, { approve: ['t2'] }, { tools: [transfer] })).status).toBe(
      'completed',
    )
    expect(ran).toEqual(['transfer 500', 'transfer 20'])
  })
})

describe('the claimState hook', () => {
  // Stands for a store every process shares (a unique insert in a database), here a Set behind a promise.
  const sharedStore = () => {
    const claimed = new Set<string>()
    const asked: string[] = []
    const claimState = async (stateId: string) => {
      asked.push(stateId)
      await new Promise((resolve) => setTimeout(resolve, 1))
      if (claimed.has(stateId)) return false
      claimed.add(stateId)
      return true
    }
    return { claimState, asked }
  }

  it('two runtimes sharing an asynchronous claim store run the approved call once: the loser fails invalid_state before any model call', async () => {
    const { ran, transfer } = setup()
    const state = await pausedState(transfer)
    const store = sharedStore()
    const providerA = scripted(['paid'])
    const providerB = scripted(['paid again'])
    const a = new Runtime({ provider: providerA, model: 'm', claimState: store.claimState })
    const b = new Runtime({ provider: providerB, model: 'm', claimState: store.claimState })
    const [first, second] = await Promise.all([
      a.resume(structuredClone(state), { approve: ['t1'] }, { tools: [transfer] }),
      b.resume(structuredClone(state), { approve: ['t1'] }, { tools: [transfer] }),
    ])
    expect(first.status).toBe('completed')
    expect(second.status).toBe('failed')
    expect(second.error?.code).toBe('invalid_state')
    expect(second.error?.message).toMatch(/already resumed/)
    expect(providerB.requests).toHaveLength(0)
    expect(ran).toEqual(['transfer 500'])
    expect(store.asked).toEqual([state.stateId, state.stateId])
  })

  it('a hook answering false synchronously makes resume throw invalid_state', async () => {
    const { ran, transfer } = setup()
    const state = await pausedState(transfer)
    const runtime = new Runtime({ provider: scripted(['paid']), model: 'm', claimState: () => false })
    expect(thrown(() => runtime.resume(state, { approve: ['t1'] }, { tools: [transfer] })).message).toMatch(
      /already resumed/,
    )
    expect(ran).toEqual([])
  })

  it('a hook that throws is a hook_error, and the call does not run', async () => {
    const { ran, transfer } = setup()
    const state = await pausedState(transfer)
    const sync = new Runtime({
      provider: scripted(['x']),
      model: 'm',
      claimState: () => {
        throw new Error('store down')
      },
    })
    expect(thrown(() => sync.resume(state, { approve: ['t1'] }, { tools: [transfer] })).code).toBe('hook_error')
    const async = new Runtime({
      provider: scripted(['x']),
      model: 'm',
      claimState: () => Promise.reject(new Error('store down')),
    })
    const result = await async.resume(state, { approve: ['t1'] }, { tools: [transfer] })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('hook_error')
    expect(ran).toEqual([])
  })
})
