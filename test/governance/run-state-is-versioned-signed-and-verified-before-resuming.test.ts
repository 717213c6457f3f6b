import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { thrown } from '../support/thrown.js'

const SECRET = 'state-signing-key-1'
const purge = defineTool({
  name: 'purge',
  description: 'Purge a cache',
  parameters: z.object({ cache: z.string() }),
  needsApproval: true,
  execute: ({ cache }) => `purged ${cache}`,
})
const other = defineTool({ name: 'other', description: 'Unrelated', parameters: z.object({}), execute: () => 'x' })

async function pausedState(stateSecret?: string): Promise<RunState> {
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'purge', args: { cache: 'edge' }, id: 'p1' })]),
    model: 'm',
    ...(stateSecret && { stateSecret }),
  })
  const result = await runtime.exec('purge the edge cache', { tools: [purge] })
  expect(result.status).toBe('paused')
  return JSON.parse(JSON.stringify(result.pending!.state)) as RunState
}

const resumer = (stateSecret?: string) =>
  new Runtime({ provider: scripted(['done']), model: 'm', ...(stateSecret && { stateSecret }) })

describe('RunState verification', () => {
  it('a state signed with the stateSecret carries an HMAC and resumes on a runtime with the same secret', async () => {
    const state = await pausedState(SECRET)
    expect(state.version).toBe(1)
    expect(state.signature).toMatch(/^[0-9a-f]{64}$/)
    const result = await resumer(SECRET).resume(state, { approve: ['p1'] }, { tools: [purge] })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('done')
  })

  it('the paused state on the agent_end event is the same signed state the result holds', async () => {
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'purge', args: { cache: 'edge' }, id: 'p1' })]),
      model: 'm',
      stateSecret: SECRET,
      secrets: ['unrelated-secret'],
    })
    const events: AgentEvent[] = []
    runtime.on('agent_end', (e) => events.push(e))
    const result = await runtime.exec('purge', { tools: [purge] })
    const end = events[0] as Extract<AgentEvent, { type: 'agent_end' }>
    expect(end.result.pending!.state.signature).toMatch(/^[0-9a-f]{64}$/)
    expect(end.result.pending!.state).toEqual(result.pending!.state)
  })

  it('the same signed state with one byte changed is rejected as invalid_state, saying the signature does not match', async () => {
    const json = JSON.stringify(await pausedState(SECRET))
    const at = json.indexOf('purge the edge cache') + 'purge the '.length
    const tampered = json.slice(0, at) + 'f' + json.slice(at + 1) // "edge" → "fdge": one byte
    expect(tampered.length).toBe(json.length)
    const error = thrown(() =>
      resumer(SECRET).resume(JSON.parse(tampered) as RunState, { approve: ['p1'] }, { tools: [purge] }),
    )
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/signature does not match/)
  })

  it('a state whose approved arguments were altered is rejected too (the pending request is covered by the signature)', async () => {
    const state = await pausedState(SECRET)
    const altered = { ...state, pending: state.pending.map((p) => ({ ...p, args: { cache: 'everything' } })) }
    expect(thrown(() => resumer(SECRET).resume(altered, { approve: ['p1'] }, { tools: [purge] })).code).toBe(
      'invalid_state',
    )
  })

  it('an unsigned state on a runtime with a stateSecret is rejected as invalid_state, saying it is not signed', async () => {
    const state = await pausedState()
    expect(state.signature).toBeUndefined()
    const error = thrown(() => resumer(SECRET).resume(state, { approve: ['p1'] }, { tools: [purge] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/not signed/)
  })

  it('a state signed with another secret is rejected as invalid_state', async () => {
    const state = await pausedState('some-other-secret')
    expect(thrown(() => resumer(SECRET).resume(state, { approve: ['p1'] }, { tools: [purge] })).code).toBe(
      'invalid_state',
    )
  })

  it('a state of an unknown version is rejected as invalid_state, naming the version found and the one supported', async () => {
    const state = { ...(await pausedState()), version: 2 } as unknown as RunState
    const error = thrown(() => resumer().resume(state, { approve: ['p1'] }, { tools: [purge] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/unknown version 2/)
    expect(error.message).toMatch(/version 1/)
  })

  it('a state naming a tool the resuming runtime lacks is rejected as invalid_state, naming the tool', async () => {
    const state = await pausedState()
    const error = thrown(() => resumer().resume(state, { approve: ['p1'] }, { tools: [other] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/tool purge/)
  })

  it('a value that is not a RunState at all is rejected as invalid_state, saying what is missing', async () => {
    expect(thrown(() => resumer().resume(null as unknown as RunState)).message).toMatch(/expected an object/)
    const state = await pausedState()
    const { history: _dropped, ...noHistory } = state
    const error = thrown(() => resumer().resume(noHistory as unknown as RunState, {}, { tools: [purge] }))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/history/)
    // Budget counters must be there: a missing one would silently switch its budget off.
    const noClock = { ...state, tree: { iterations: 1, tokens: 15 } } as unknown as RunState
    expect(thrown(() => resumer().resume(noClock, {}, { tools: [purge] })).message).toMatch(/tree\.elapsedMs/)
  })

  it('a runtime without a stateSecret still resumes an unsigned state (signing is opt-in)', async () => {
    const result = await resumer().resume(await pausedState(), { approve: ['p1'] }, { tools: [purge] })
    expect(result.status).toBe('completed')
  })
})
