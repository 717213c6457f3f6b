import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

const purge = defineTool({
  name: 'purge',
  description: 'Purge a cache',
  parameters: z.object({ cache: z.string() }),
  needsApproval: true,
  execute: ({ cache }) => `purged ${cache}`,
})

async function paused(stateSecret?: string): Promise<RunState> {
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'purge', args: { cache: 'edge' }, id: 'p1' })]),
    model: 'm',
    ...(stateSecret && { stateSecret }),
  })
  const result = await runtime.exec('purge the edge cache', { tools: [purge] })
  expect(result.status).toBe('paused')
  return result.pending!.state
}

describe('runtime.resume and the state object it is given', () => {
  it('a resume that runs to completion leaves the state exactly as it was (usage, receipts, history)', async () => {
    const state = await paused()
    const before = structuredClone(state)
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'purge', args: { cache: 'origin' }, id: 'p2' }), 'done']),
      model: 'm',
      approve: () => true,
    })
    const result = await runtime.resume(state, { approve: ['p1'] }, { tools: [purge] })
    expect(result.status).toBe('completed')
    expect(result.receipts).toHaveLength(2)
    expect(state).toEqual(before)
  })

  it('what the resumed exec returns shares nothing with the state: changing the result leaves the state alone', async () => {
    const state = await paused()
    const before = structuredClone(state)
    const result = await new Runtime({ provider: scripted(['done']), model: 'm' }).resume(
      state,
      { approve: ['p1'] },
      { tools: [purge] },
    )
    result.history.push({ role: 'user', content: 'later' })
    result.usage.total += 1000
    ;(result.history[0] as { content: string }).content = 'changed'
    expect(state).toEqual(before)
  })

  it('a signed state still verifies after a resume of it: its signature covers the unchanged content', async () => {
    const state = await paused('resume-secret-1')
    await new Runtime({ provider: scripted(['done']), model: 'm', stateSecret: 'resume-secret-1' }).resume(
      state,
      { approve: ['p1'] },
      { tools: [purge] },
    )
    // A second resume is refused because the state is spent, not because its content changed.
    expect(() =>
      new Runtime({ provider: scripted(['done']), model: 'm', stateSecret: 'resume-secret-1' }).resume(
        state,
        { approve: ['p1'] },
        { tools: [purge] },
      ),
    ).toThrow(/already resumed/)
  })
})
