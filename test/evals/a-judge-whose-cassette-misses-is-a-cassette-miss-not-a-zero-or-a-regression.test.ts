import { join } from 'node:path'
import { expect, it } from 'vitest'
import { scripted } from '@nestor/providers'
import { evaluate, scorers, type EvaluateOptions } from '@nestor/evals'
import { scratchDir } from '../support/scratch-dir.js'
import { cityAgent, cityModel } from './support.js'

it("a judge's replay miss (the case's expected changed) leaves the case unscored as cassette_miss, saying to re-record", async () => {
  const dir = join(scratchDir('evals-judge-miss-'), 'cassettes')
  const agent = cityAgent()
  const judgeModel = scripted(() => '{"score":0.9,"reason":"names the city"}')
  const options = (expected: string): EvaluateOptions => ({
    name: 'judge-miss',
    data: [{ id: 'lisbon', input: 'Plan Lisbon', expected }],
    cassettes: dir,
    task: (input, ctx) =>
      agent.runtime.exec(input as string, { tools: agent.tools, signal: ctx.signal, provider: ctx.provider! }),
    scorers: [scorers.judge({ provider: judgeModel, model: 'judge-m', rubric: 'Names the city' })],
  })
  const recorded = await evaluate({ ...options('Lisbon'), provider: cityModel() })
  expect(recorded.cases[0]!.scores.judge?.score).toBe(0.9)

  // The task's requests are unchanged (they replay); only the judge's prompt holds `expected`.
  const changed = await evaluate({ ...options('Lisbon, Portugal'), baseline: recorded })
  const [c] = changed.cases
  expect(c!.status).toBe('cassette_miss')
  expect(c!.scores).toEqual({})
  expect(c!.error).toMatch(
    /^scorer judge: the request changed since the recording \(re-record with cassettes mode 'record'\)/,
  )
  expect(changed.scorers.judge!.scored).toBe(0)
  expect(changed.baseline!.regressions).toEqual([])
  expect(changed.problems).toEqual([expect.stringMatching(/^case lisbon: cassette_miss: scorer judge: /)])
  expect(judgeModel.requests).toHaveLength(1)
})
