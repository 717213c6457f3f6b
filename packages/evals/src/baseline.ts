import { readFile } from 'node:fs/promises'
import { NestorError } from '@nestor/core'
import { pathNote } from './paths.js'
import type { BaselineDiff, CaseReport, EvalReport, Regression, ScorerSummary } from './types.js'

/**
 * Reads a stored report to compare with (`nestor-eval --update-baseline` writes one). A file that
 * does not exist yet is no error (the first run has nothing to compare with): undefined.
 */
export async function readBaseline(baseline: string | EvalReport): Promise<EvalReport | undefined> {
  if (typeof baseline !== 'string') return checked(baseline, 'the baseline')
  let text: string
  try {
    text = await readFile(baseline, 'utf8')
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined
    throw new NestorError(
      'invalid_options',
      `evaluate: cannot read the baseline ${pathNote(baseline)}: ${(error as Error).message}`,
    )
  }
  try {
    return checked(JSON.parse(text) as EvalReport, baseline)
  } catch (error) {
    if (NestorError.isInstance(error)) throw error
    throw new NestorError(
      'invalid_options',
      `evaluate: the baseline ${baseline} is not JSON: ${(error as Error).message}`,
    )
  }
}

function checked(report: EvalReport, where: string): EvalReport {
  if (report?.format !== 'nestor-eval-report' || report.version !== 1 || !Array.isArray(report.cases))
    throw new NestorError(
      'invalid_options',
      `evaluate: ${where} is not a nestor-eval report (format nestor-eval-report, version 1)`,
    )
  return report
}

/**
 * Compares per scorer (mean and pass rate) and per case (each score). A drop by more than
 * `tolerance` is a regression; a case now below `passAt` that passed the scorer before is one too.
 */
export function compare(
  baseline: EvalReport,
  scorers: Record<string, ScorerSummary>,
  cases: CaseReport[],
  tolerance: number,
  passAt: number,
): BaselineDiff {
  const regressions: Regression[] = []
  const diff: BaselineDiff = {
    name: baseline.name,
    startedAt: baseline.startedAt,
    scorers: {},
    cases: [],
    regressions,
    added: [],
    removed: [],
  }
  for (const [name, now] of Object.entries(scorers)) {
    const before = baseline.scorers[name]
    diff.scorers[name] = { mean: now.mean, passRate: now.passRate }
    // No case scored (every one a cassette miss or aborted): nothing was measured to compare.
    if (!before || now.scored === 0) continue
    Object.assign(diff.scorers[name], { baselineMean: before.mean, baselinePassRate: before.passRate })
    if (now.mean < before.mean - tolerance)
      regressions.push({ scorer: name, metric: 'mean', baseline: before.mean, actual: now.mean })
    if (now.passRate < before.passRate - tolerance)
      regressions.push({ scorer: name, metric: 'passRate', baseline: before.passRate, actual: now.passRate })
  }
  const old = new Map(baseline.cases.map((c) => [c.id, c]))
  for (const c of cases) {
    const was = old.get(c.id)
    if (!was) {
      diff.added.push(c.id)
      continue
    }
    const row: BaselineDiff['cases'][number] = { id: c.id, scores: {} }
    for (const name of Object.keys(scorers)) {
      const score = c.scores[name]?.score
      const before = was.scores[name]?.score
      const entry: { score?: number; baseline?: number } = {}
      if (score !== undefined) entry.score = score
      if (before !== undefined) entry.baseline = before
      row.scores[name] = entry
      if (score === undefined || before === undefined) continue
      if (score < before - tolerance && before >= passAt && score < passAt)
        regressions.push({ scorer: name, case: c.id, metric: 'score', baseline: before, actual: score })
    }
    diff.cases.push(row)
  }
  const ids = new Set(cases.map((c) => c.id))
  diff.removed = baseline.cases.filter((c) => !ids.has(c.id)).map((c) => c.id)
  return diff
}
