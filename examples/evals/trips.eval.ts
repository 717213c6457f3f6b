// The worked example of docs/evals.md: the demo's trip planner on ten trips, four scorers, offline
// from the committed cassettes.
//   pnpm eval                                   offline (what CI runs)
//   pnpm eval -- --update-baseline              accept the current scores as the baseline
//   pnpm eval -- --record                       re-record the cassettes (from the scripted trip model)
import { join } from 'node:path'
import { Runtime } from '@nestor/core'
import { defineEval, scorers, type Scorer } from '@nestor/evals'
import { repoRoot } from '../demo/live-provider.js'
import { PLANNER_SYSTEM, plannerTools } from '../demo/trip-agents.js'
import { tripJudge, tripModel } from './trip-model.js'

export const TRIPS_MODEL = 'scripted-trips'
const here = join(repoRoot(), 'examples', 'evals')

const runtime = new Runtime({
  provider: tripModel(),
  model: TRIPS_MODEL,
  system: PLANNER_SYSTEM,
  maxIterations: 10,
  // Every brief may be saved: the eval grades the plan, not the person approving it.
  approve: () => ({ approved: true }),
})

/** Does the answer say what the arithmetic says (under or over budget), or that costs are unknown? */
const budgetVerdict: Scorer = {
  name: 'budget',
  score: (c, result) => {
    const fits = (c.metadata as { fits: boolean | null }).fits
    const says = /under the/.test(result.text) ? true : /over the/.test(result.text) ? false : null
    if (says === fits) return 1
    return { score: 0, reason: `expected ${fits === null ? 'costs unknown' : fits ? 'under budget' : 'over budget'}` }
  },
}

export default defineEval({
  name: 'trips',
  data: join(here, 'trips.jsonl'),
  // No provider passed: with cassettes every exec of the task goes through the case's cassette.
  task: (input, ctx) => runtime.exec(input as string, { tools: plannerTools(), signal: ctx.signal }),
  scorers: [
    scorers.includes(),
    scorers.toolCalls(['research', 'budget', 'save_brief'], { order: true, rootOnly: true }),
    budgetVerdict,
    scorers.judge({
      provider: tripJudge(),
      model: 'scripted-judge',
      rubric: 'The answer gives the total cost in euros and says whether it is under or over the budget.',
    }),
  ],
  provider: tripModel(),
  cassettes: join(here, 'cassettes'),
  baseline: join(here, 'trips.baseline.json'),
  thresholds: { includes: 1, budget: 1, toolCalls: { mean: 0.8 } },
  prices: { [TRIPS_MODEL]: { input: 0.4, output: 1.6 } },
  concurrency: 4,
})
