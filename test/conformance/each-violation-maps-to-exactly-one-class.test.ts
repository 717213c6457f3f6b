import { runToolLoopConformance } from '@nestor/agents/conformance'
import { describe, expect, it } from 'vitest'
import { moreViolators, violators } from './models.js'

describe('tool-loop conformance: each violation maps to exactly one class', () => {
  for (const [cls, model] of Object.entries(violators)) {
    it(`a model making only a ${cls} mistake fails with ${cls} and nothing else`, async () => {
      const outcome = await runToolLoopConformance({ provider: model(), model: 'scripted' })
      expect(outcome.passed).toBe(false)
      expect(outcome.failureClass).toBe(cls)
      expect(outcome.violations.length).toBeGreaterThan(0)
      expect(new Set(outcome.violations.map((v) => v.class))).toEqual(new Set([cls]))
    })
  }

  for (const [what, [cls, model]] of Object.entries(moreViolators)) {
    it(`${what} is ${cls}`, async () => {
      const outcome = await runToolLoopConformance({ provider: model(), model: 'scripted' })
      expect(outcome.failureClass).toBe(cls)
      expect(new Set(outcome.violations.map((v) => v.class))).toEqual(new Set([cls]))
    })
  }

  it('never runs past 8 turns', async () => {
    const outcome = await runToolLoopConformance({
      provider: moreViolators['calling tools past 8 turns'][1](),
      model: 'scripted',
    })
    expect(outcome.turns).toBe(8)
    expect(Math.max(...outcome.observations.map((o) => o.turn))).toBe(8)
  })

  it('keeps malformed arguments as the raw text in the observation', async () => {
    const outcome = await runToolLoopConformance({
      provider: moreViolators['malformed JSON arguments'][1](),
      model: 'scripted',
    })
    expect(outcome.observations[0]).toEqual({ name: 'read_fixture', arguments: '{"fixture_id": "calc-add"', turn: 1 })
  })
})
