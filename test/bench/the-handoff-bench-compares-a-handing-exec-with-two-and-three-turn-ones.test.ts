import { describe, expect, it } from 'vitest'
import { measureHandoff } from '../../bench/dist/handoff.js'

// The handoff line's pipeline (compiled, as `pnpm bench` runs it), on a pass of a few execs: each
// kind really runs its turns, and the handing exec really ends as the target. No timing asserted.
describe('the handoff bench', () => {
  it('measures the three kinds of exec, each checked for its turn count and answering agent', async () => {
    const m = await measureHandoff(1, 3)
    expect(m.turnsRight).toBe(true)
    for (const ms of [m.twoTurns, m.threeTurns, m.handoff]) expect(ms).toBeGreaterThanOrEqual(0)
  })
})
