import type { ExecResult, ExecRun, ModelPrices, Provider, Usage } from '@nestor/core'
import type { ExecNode } from './tree.js'

/** One case of a dataset: what the task is given, what a scorer may compare with, anything else. */
export type EvalCase<I = unknown, E = unknown> = {
  /** Names the case in reports, baselines and cassette folders. Default: a hash of `input`. */
  id?: string
  input: I
  expected?: E
  metadata?: Record<string, unknown>
}

/** What a task gets besides the input: abort (the eval's and the case's timeout), the case, its provider. */
export type TaskContext<I = unknown, E = unknown> = {
  signal: AbortSignal
  case: EvalCase<I, E> & { id: string }
  /** 1-based trial number. */
  trial: number
  /**
   * With `cassettes`, the case's recorder or strict replayer (around `evaluate({ provider })`):
   * every exec the task opens without a `provider` option takes it anyway (core's `withProvider`),
   * so passing it is optional. Otherwise `evaluate({ provider })` itself, or undefined.
   */
  provider: Provider | undefined
}

/** A task: usually `runtime.exec(...)`; anything that returns an ExecRun or an ExecResult. */
export type Task<I = unknown, E = unknown> = (
  input: I,
  ctx: TaskContext<I, E>,
) => ExecRun | ExecResult | Promise<ExecRun | ExecResult>

export type ScoreResult = {
  /** 0..1 */
  score: number
  reason?: string
  /** Tokens the scorer spent itself (an LLM judge): reported apart from the task's usage. */
  usage?: Usage
}

/** What a scorer sees besides the case and the result. */
export type ScoreContext = {
  signal: AbortSignal
  /** The case's exec tree, as the report holds it. */
  tree: ExecNode
  /** Wraps a judge's provider in the case's cassette (recorded with it, replayed with it). */
  provider(provider: Provider): Provider
}

export type Scorer<I = unknown, E = unknown> = {
  name: string
  score(c: EvalCase<I, E>, result: ExecResult, ctx: ScoreContext): number | ScoreResult | Promise<number | ScoreResult>
}

/** A minimum per scorer: its mean (a number is the mean), and/or its pass rate. */
export type Threshold = number | { mean?: number; passRate?: number }

export type CassetteMode = 'auto' | 'replay' | 'record'
export type CassetteOptions = {
  dir: string
  /**
   * `auto` (default): a case whose folder exists replays strictly, one without records live once.
   * `replay`: strictly offline (a missing folder fails the case `cassette_missing`). `record`: all live.
   */
  mode?: CassetteMode
}

export type EvaluateOptions<I = unknown, E = unknown> = {
  name: string
  /** The cases, or the path of a JSONL file of `{ id?, input, expected?, metadata? }` lines. */
  data: EvalCase<I, E>[] | string
  task: Task<I, E>
  scorers: Scorer<I, E>[]
  /** Runs of each case; scores are their mean and the report gives the spread. Default 1. */
  trials?: number
  /** Cases (trials) running at once. Default 4. */
  concurrency?: number
  /** Per trial; past it the case's signal aborts and the case is `timeout`. Default none. */
  timeoutMs?: number
  /** Aborts the whole eval: cases not started are `aborted`. */
  signal?: AbortSignal
  /** The live provider (what cassettes record from). */
  provider?: Provider
  cassettes?: string | CassetteOptions
  /** A report JSON file (or a report) to compare with. */
  baseline?: string | EvalReport
  /** How much a mean or a pass rate may drop below the baseline before it is a regression. Default 0. */
  tolerance?: number
  thresholds?: Record<string, Threshold>
  /** A score at or above it passes (for pass rates). Default 0.5. */
  passAt?: number
  /** Keep only the cases whose id (or JSON input) contains this text, or that match this expression. */
  filter?: string | RegExp
  /**
   * USD per million tokens, per model name: these rates win over the model catalogue's (which
   * prices every turn it knows; docs/cost.md).
   */
  prices?: Record<string, ModelPrices>
  /** Called as each case ends (the CLI draws its progress from it). */
  onCase?: (c: CaseReport, done: number, total: number) => void
}

/**
 * `completed`: the task ended and was scored (whatever its scores); `failed`: the task threw or its
 * exec did not complete (scored 0); `timeout`, `aborted`; `cassette_miss`: its request changed
 * since the recording; `cassette_missing`: no recording in replay mode. The last two are not scored.
 */
export type CaseStatus = 'completed' | 'failed' | 'timeout' | 'aborted' | 'cassette_miss' | 'cassette_missing'

export type Spread = { min: number; max: number; stdev: number }

export type TrialReport = {
  status: CaseStatus
  scores: Record<string, ScoreResult>
  durationMs: number
  error?: string
}

export type CaseReport = {
  id: string
  input: unknown
  expected?: unknown
  metadata?: Record<string, unknown>
  status: CaseStatus
  /** Why the case did not complete (the error's code and message). */
  error?: string
  /** Mean over trials per scorer; `reason` is the last trial's. */
  scores: Record<string, ScoreResult>
  /** All scorers passed (`passAt`) and the case completed. */
  passed: boolean
  trials: TrialReport[]
  /** Per scorer, across trials (only with trials > 1). */
  spread?: Record<string, Spread>
  usage: Usage
  /** Tokens the scorers spent (LLM judges). */
  scorerUsage: Usage
  /** USD, when every model used has a price (`prices` or the catalogue). */
  cost?: number
  durationMs: number
  /** The final text of the last trial. */
  text: string
  /** The last trial's ExecResult, as JSON. */
  result?: ExecResult
  /** The last trial's exec tree. */
  tree?: ExecNode
}

export type ScorerSummary = { mean: number; passRate: number; min: number; max: number; scored: number }

export type ThresholdCheck = {
  scorer: string
  metric: 'mean' | 'passRate'
  min: number
  actual: number
  passed: boolean
}

export type Regression = {
  scorer: string
  /** Undefined for the scorer's whole mean or pass rate. */
  case?: string
  metric: 'mean' | 'passRate' | 'score'
  baseline: number
  actual: number
}

export type BaselineDiff = {
  /** The baseline report's name and when it ran. */
  name: string
  startedAt: string
  scorers: Record<string, { mean: number; baselineMean?: number; passRate: number; baselinePassRate?: number }>
  cases: { id: string; scores: Record<string, { score?: number; baseline?: number }> }[]
  regressions: Regression[]
  /** Case ids in one report and not the other. */
  added: string[]
  removed: string[]
}

export type EvalReport = {
  format: 'nestor-eval-report'
  version: 1
  name: string
  startedAt: string
  durationMs: number
  /** False when a threshold is missed, the baseline regressed, or a case could not be scored from its cassette. */
  passed: boolean
  /** The score at or above which a case passes a scorer. */
  passAt: number
  /** Why `passed` is false, one line each. */
  problems: string[]
  /** What a person should know that does not fail the eval (a baseline file not written yet). */
  warnings?: string[]
  totals: {
    cases: number
    passed: number
    byStatus: Partial<Record<CaseStatus, number>>
    usage: Usage
    scorerUsage: Usage
    cost?: number
  }
  scorers: Record<string, ScorerSummary>
  thresholds: ThresholdCheck[]
  baseline?: BaselineDiff
  cases: CaseReport[]
}
