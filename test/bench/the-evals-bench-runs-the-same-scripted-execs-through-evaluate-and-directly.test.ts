import { describe, expect, it } from 'vitest'
import { evalsBench } from '../../bench/evals.js'

// The evals bench on a few cases: both sides must do the same work (its timings are the bench's business).
describe('the evals bench', () => {
  it('runs each case once through evaluate and once directly per round, two model calls each', async () => {
    const report = await evalsBench(5, 2, 0)
    expect(report.regime).toBe('cpu')
    expect(report.modelCalls).toBe(5 * 2 * 2 * 2)
    expect(report.direct).toBeGreaterThan(0)
    expect(report.harness).toBeGreaterThan(0)
  })
})
