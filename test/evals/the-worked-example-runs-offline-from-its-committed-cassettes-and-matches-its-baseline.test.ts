import { describe, expect, it } from 'vitest'
import { evaluate, type CassetteOptions } from '@nestor/evals'
import trips from '../../examples/evals/trips.eval.js'

describe('examples/evals (what `pnpm eval` runs)', () => {
  it('replays its ten cases strictly offline, with no live provider, passes its thresholds and matches its baseline', async () => {
    const dir = trips.cassettes as string | CassetteOptions | undefined as string
    const { provider: _live, ...offline } = trips
    const report = await evaluate({ ...offline, cassettes: { dir, mode: 'replay' } })
    expect(report.cases).toHaveLength(10)
    expect(report.totals.byStatus).toEqual({ completed: 10 })
    expect(Object.keys(report.scorers)).toEqual(['includes', 'toolCalls', 'budget', 'judge'])
    expect(report.thresholds.every((t) => t.passed)).toBe(true)
    expect(report.baseline?.regressions).toEqual([])
    expect(report.passed).toBe(true)
    // The three cities without cost notes get no budget call and no total: the judge says so.
    const unknown = report.cases.filter((c) => c.scores.toolCalls!.score < 1).map((c) => c.id)
    expect(unknown.sort()).toEqual(['faro', 'madrid', 'porto'])
    expect(report.cases.find((c) => c.id === 'faro')!.scores.judge).toEqual({ score: 0, reason: 'no total' })
    const lisbon = report.cases.find((c) => c.id === 'lisbon-may-two')!
    expect(lisbon.text).toContain('€743.20')
    expect(lisbon.tree!.tools.map((t) => [t.toolName, t.children.length])).toEqual([
      ['research', 1],
      ['budget', 1],
      ['save_brief', 0],
    ])
    expect(report.totals.cost).toBeGreaterThan(0)
    expect(report.totals.scorerUsage.total).toBeGreaterThan(0)
  })
})
