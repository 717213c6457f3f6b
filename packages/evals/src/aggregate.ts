import type { Usage } from '@nestor/core'
import { addUsage, costOf, emptyUsage, redactDeep } from '@nestor/core/integration-kit'
import type { LoadedCase } from './data.js'
import type { Trial } from './run-case.js'
import type {
  CaseReport,
  CaseStatus,
  EvaluateOptions,
  ScoreResult,
  ScorerSummary,
  Spread,
  ThresholdCheck,
} from './types.js'

const SCORED: ReadonlySet<CaseStatus> = new Set(['completed', 'failed', 'timeout'])
/** Cases that count in means: those the task ran (a cassette miss or an abort says nothing of the agent). */
export const isScored = (c: Pick<CaseReport, 'status'>) => SCORED.has(c.status)

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
const round = (x: number) => Math.round(x * 1e6) / 1e6

function spreadOf(xs: number[]): Spread {
  const m = mean(xs)
  return { min: Math.min(...xs), max: Math.max(...xs), stdev: round(Math.sqrt(mean(xs.map((x) => (x - m) ** 2)))) }
}

/**
 * USD of a usage per model: at the rates `prices` gives for a model (the eval's overrides), else
 * what the run priced its turns at (the model catalogue, docs/cost.md). Undefined when one model
 * has neither: a report never shows a partial sum as the cost.
 */
export function reportCost(byModel: Map<string, Usage>, prices: EvaluateOptions['prices']): number | undefined {
  if (byModel.size === 0) return undefined
  let usd = 0
  for (const [model, usage] of byModel) {
    const price = prices?.[model]
    const cost = price ? costOf(usage, price).total : usage.cost?.total
    if (cost === undefined) return undefined
    usd += cost
  }
  return round(usd)
}

/**
 * One case's report from its trials: mean scores, the worst status, the spread, the last result.
 * Redacted whole with the secrets of the trials' execs (text, result, tree, reasons, errors): a
 * report is an artifact CI uploads.
 */
export function caseReport<I, E>(
  c: LoadedCase<I, E>,
  trials: Trial[],
  scorerNames: string[],
  options: EvaluateOptions<I, E>,
): CaseReport {
  const last = trials[trials.length - 1]!
  const status = trials.find((t) => t.status !== 'completed')?.status ?? 'completed'
  const scores: Record<string, ScoreResult> = {}
  const spread: Record<string, Spread> = {}
  // One trial (the common case) is its own total: nothing to add up.
  let usage = last.usage
  let scorerUsage = last.scorerUsage
  let byModel = last.byModel
  if (trials.length > 1) {
    usage = emptyUsage()
    scorerUsage = emptyUsage()
    byModel = new Map<string, Usage>()
    for (const t of trials) {
      addUsage(usage, t.usage)
      addUsage(scorerUsage, t.scorerUsage)
      for (const [model, u] of t.byModel) byModel.set(model, addUsage(byModel.get(model) ?? emptyUsage(), u))
    }
  }
  if (isScored({ status })) {
    for (const name of scorerNames) {
      const xs = trials.map((t) => t.scores[name]?.score ?? 0)
      const entry: ScoreResult = { score: round(mean(xs)) }
      for (let t = trials.length - 1; t >= 0; t--) {
        const reason = trials[t]!.scores[name]?.reason
        if (reason === undefined || reason === '') continue
        entry.reason = reason
        break
      }
      scores[name] = entry
      if (trials.length > 1) spread[name] = spreadOf(xs)
    }
  }
  const passAt = options.passAt ?? 0.5
  const report: CaseReport = {
    id: c.id,
    input: c.input,
    status,
    scores,
    passed: status === 'completed' && scorerNames.every((n) => (scores[n]?.score ?? 0) >= passAt),
    trials: trials.map((t) => {
      const out: CaseReport['trials'][number] = {
        status: t.status,
        scores: t.scores,
        durationMs: Math.round(t.durationMs),
      }
      if (t.error) out.error = t.error
      return out
    }),
    usage,
    scorerUsage,
    durationMs: Math.round(trials.reduce((a, t) => a + t.durationMs, 0)),
    text: last.result?.text ?? '',
  }
  if (c.expected !== undefined) report.expected = c.expected
  if (c.metadata !== undefined) report.metadata = c.metadata
  const error = trials.find((t) => t.error)?.error
  if (error) report.error = error
  if (trials.length > 1) report.spread = spread
  const cost = reportCost(byModel, options.prices)
  if (cost !== undefined) report.cost = cost
  if (last.result) report.result = last.result
  if (last.tree) report.tree = last.tree
  return redactDeep(report, [...new Set(trials.flatMap((t) => t.secrets))])
}

export function scorerSummaries(cases: CaseReport[], names: string[], passAt: number): Record<string, ScorerSummary> {
  const scored = cases.filter(isScored)
  return Object.fromEntries(
    names.map((name) => {
      const xs = scored.map((c) => c.scores[name]?.score ?? 0)
      return [
        name,
        {
          mean: round(mean(xs)),
          passRate: round(mean(xs.map((x) => (x >= passAt ? 1 : 0)))),
          min: xs.length ? Math.min(...xs) : 0,
          max: xs.length ? Math.max(...xs) : 0,
          scored: xs.length,
        },
      ]
    }),
  )
}

export function checkThresholds(
  summaries: Record<string, ScorerSummary>,
  thresholds: EvaluateOptions['thresholds'] = {},
): ThresholdCheck[] {
  const checks: ThresholdCheck[] = []
  for (const [scorer, t] of Object.entries(thresholds)) {
    const s = summaries[scorer]
    const wanted = typeof t === 'number' ? { mean: t } : t
    for (const metric of ['mean', 'passRate'] as const) {
      const min = wanted[metric]
      if (min === undefined) continue
      const actual = s?.[metric] ?? 0
      checks.push({ scorer, metric, min, actual, passed: actual >= min })
    }
  }
  return checks
}
