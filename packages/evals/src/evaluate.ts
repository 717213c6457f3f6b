import { NestorError } from '@nestor/core'
import { addUsage, emptyUsage, option, parseOptions, strictOptions } from '@nestor/core/integration-kit'
import { caseReport, checkThresholds, scorerSummaries } from './aggregate.js'
import { compare, readBaseline } from './baseline.js'
import { pathNote } from './paths.js'
import { caseCassette, cassettesOf } from './cassettes.js'
import { loadCases, type LoadedCase } from './data.js'
import { pool } from './pool.js'
import { runTrial, type Trial } from './run-case.js'
import type { CaseReport, CaseStatus, EvalReport, EvaluateOptions, Scorer } from './types.js'

const evaluateOptions = strictOptions(() => ({
  name: option.nonEmptyString(),
  data: option.custom<unknown>(
    'an array of cases or a JSONL file path',
    (v) => Array.isArray(v) || typeof v === 'string',
  ),
  task: option.function<unknown>(),
  scorers: option.custom<unknown>('an array of scorers ({ name, score })', (v) => Array.isArray(v)),
  trials: option.positiveInt().optional(),
  concurrency: option.positiveInt().optional(),
  timeoutMs: option.custom<number>('a number of milliseconds > 0', (v) => typeof v === 'number' && v > 0).optional(),
  signal: option.custom<AbortSignal>('an AbortSignal', (v) => v instanceof AbortSignal).optional(),
  provider: option.custom<unknown>('a Provider', (v) => typeof v === 'object' && v !== null).optional(),
  cassettes: option
    .custom<unknown>('a folder or { dir, mode }', (v) => typeof v === 'string' || (typeof v === 'object' && v !== null))
    .optional(),
  baseline: option
    .custom<unknown>(
      'a report file path or a report',
      (v) => typeof v === 'string' || (typeof v === 'object' && v !== null),
    )
    .optional(),
  tolerance: option.nonNegative().optional(),
  thresholds: option.plainObject().optional(),
  passAt: option.custom<number>('a number from 0 to 1', (v) => typeof v === 'number' && v >= 0 && v <= 1).optional(),
  filter: option
    .custom<unknown>('a string or a RegExp', (v) => typeof v === 'string' || v instanceof RegExp)
    .optional(),
  prices: option.plainObject().optional(),
  onCase: option.function<unknown>().optional(),
}))

function checkScorers<I, E>(list: Scorer<I, E>[]): void {
  const names = new Set<string>()
  list.forEach((s, i) => {
    if (
      typeof s !== 'object' ||
      s === null ||
      typeof s.name !== 'string' ||
      s.name === '' ||
      typeof s.score !== 'function'
    )
      throw new NestorError(
        'invalid_options',
        `evaluate: scorers[${i}] is not a scorer ({ name, score(case, result) })`,
      )
    if (names.has(s.name))
      throw new NestorError('invalid_options', `evaluate: two scorers are named ${s.name}: give one a name`)
    names.add(s.name)
  })
}

const matches = (c: LoadedCase<unknown, unknown>, filter: string | RegExp | undefined) =>
  filter === undefined ||
  (typeof filter === 'string'
    ? c.id.includes(filter) || JSON.stringify(c.input).includes(filter)
    : filter.test(c.id) || filter.test(JSON.stringify(c.input)))

/**
 * Runs `task` on every case (`trials` times, at most `concurrency` at once), scores each result
 * with every scorer, and returns the report. Bad options fail `invalid_options` before any case
 * runs; a task that throws or fails is a failed case, never a rejected evaluate.
 */
export async function evaluate<I = unknown, E = unknown>(options: EvaluateOptions<I, E>): Promise<EvalReport> {
  parseOptions(evaluateOptions, options, 'evaluate')
  checkScorers(options.scorers)
  for (const key of Object.keys(options.thresholds ?? {}))
    if (!options.scorers.some((s) => s.name === key))
      throw new NestorError(
        'invalid_options',
        `evaluate: thresholds.${key} names no scorer (scorers: ${options.scorers.map((s) => s.name).join(', ')})`,
      )
  const cassettes = cassettesOf(options.cassettes)
  const baseline = options.baseline === undefined ? undefined : await readBaseline(options.baseline)
  const cases = (await loadCases(options.data)).filter((c) =>
    matches(c as LoadedCase<unknown, unknown>, options.filter),
  )
  const trials = options.trials ?? 1
  const passAt = options.passAt ?? 0.5
  const names = options.scorers.map((s) => s.name)
  const startedAt = new Date()
  const started = performance.now()

  const results: Trial[][] = cases.map(() => [])
  const reports: (CaseReport | undefined)[] = cases.map(() => undefined)
  const ended = cases.map(() => 0)
  let finished = 0
  await pool(
    cases.length * trials,
    options.concurrency ?? 4,
    async (n) => {
      const index = Math.floor(n / trials)
      const c = cases[index]!
      const cassette = caseCassette(cassettes, c.id, options.provider)
      const trial = n % trials
      results[index]![trial] = await runTrial(c, trial + 1, options, cassette, options.scorers)
      if (++ended[index]! < trials) return
      const report = caseReport(c, results[index]!, names, options)
      reports[index] = report
      options.onCase?.(report, ++finished, cases.length)
    },
    options.signal,
  )
  const caseReports = cases.map((c, i) => reports[i] ?? notRun(c, results[i]!.filter(Boolean), names, options))

  const summaries = scorerSummaries(caseReports, names, passAt)
  const thresholds = checkThresholds(summaries, options.thresholds)
  const usage = emptyUsage()
  const scorerUsage = emptyUsage()
  const byStatus: Partial<Record<CaseStatus, number>> = {}
  let cost: number | undefined = 0
  for (const c of caseReports) {
    addUsage(usage, c.usage)
    addUsage(scorerUsage, c.scorerUsage)
    byStatus[c.status] = (byStatus[c.status] ?? 0) + 1
    cost = cost === undefined || c.cost === undefined ? undefined : cost + c.cost
  }
  const report: EvalReport = {
    format: 'nestor-eval-report',
    version: 1,
    name: options.name,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    passed: true,
    passAt,
    problems: [],
    totals: {
      cases: caseReports.length,
      passed: caseReports.filter((c) => c.passed).length,
      byStatus,
      usage,
      scorerUsage,
    },
    scorers: summaries,
    thresholds,
    cases: caseReports,
  }
  if (cost !== undefined && caseReports.length > 0) report.totals.cost = Math.round(cost * 1e6) / 1e6
  if (baseline) report.baseline = compare(baseline, summaries, caseReports, options.tolerance ?? 0, passAt)
  else if (typeof options.baseline === 'string')
    report.warnings = [
      `no baseline at ${pathNote(options.baseline)} yet: nothing was compared (nestor-eval --update-baseline writes it)`,
    ]
  report.problems = problemsOf(report)
  report.passed = report.problems.length === 0
  return report
}

/** A case the eval's abort kept from finishing (some trials may have run). */
function notRun<I, E>(
  c: LoadedCase<I, E>,
  trials: Trial[],
  names: string[],
  options: EvaluateOptions<I, E>,
): CaseReport {
  const skipped: Trial = {
    status: 'aborted',
    error: 'the eval was aborted before this case ran',
    scores: {},
    usage: emptyUsage(),
    scorerUsage: emptyUsage(),
    byModel: new Map(),
    durationMs: 0,
    secrets: [],
  }
  return caseReport(c, [...trials, skipped], names, options)
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`

function problemsOf(report: EvalReport): string[] {
  const problems: string[] = []
  for (const t of report.thresholds)
    if (!t.passed) problems.push(`${t.scorer} ${t.metric} ${pct(t.actual)} is under the threshold ${pct(t.min)}`)
  for (const r of report.baseline?.regressions ?? [])
    problems.push(
      r.case === undefined
        ? `${r.scorer} ${r.metric} fell from ${pct(r.baseline)} to ${pct(r.actual)} (baseline ${report.baseline!.startedAt})`
        : `case ${r.case}: ${r.scorer} fell from ${r.baseline} to ${r.actual} (it passed in the baseline)`,
    )
  for (const c of report.cases)
    if (c.status === 'cassette_miss' || c.status === 'cassette_missing' || c.status === 'aborted')
      problems.push(`case ${c.id}: ${c.status}: ${c.error ?? ''}`)
  return problems
}
