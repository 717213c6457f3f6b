import {
  withProvider,
  withSecretsListener,
  type AgentEvent,
  type ExecResult,
  type ExecRun,
  type Usage,
} from '@nestor/core'
import { addUsage, emptyUsage, messageOf } from '@nestor/core/integration-kit'
import type { CaseCassette } from './cassettes.js'
import type { LoadedCase } from './data.js'
import { TreeBuilder, treeOfResult, type ExecNode } from './tree.js'
import type { CaseStatus, EvaluateOptions, ScoreResult, Scorer } from './types.js'

/** One trial of one case, scored. */
export type Trial = {
  status: CaseStatus
  error?: string
  scores: Record<string, ScoreResult>
  result?: ExecResult
  tree?: ExecNode
  usage: Usage
  scorerUsage: Usage
  byModel: Map<string, Usage>
  durationMs: number
  /** The secrets of the trial's execs: its case report keeps none of them. */
  secrets: readonly string[]
}

// How long an aborted task may take to settle (an exec answers its signal at once) before the
// case is given up; a task that ignores its signal is not waited for beyond this.
const SETTLE_MS = 2_000

const isRun = (value: unknown): value is ExecRun =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value && 'then' in value

async function settle(
  value: ExecRun | ExecResult | Promise<ExecRun | ExecResult>,
  tree: TreeBuilder,
): Promise<ExecResult> {
  const got = isRun(value) ? value : await value
  if (!isRun(got)) return got
  // A Nestor run is read synchronously (no promise per event); anything else run-like is iterated.
  if (typeof got.subscribe === 'function') {
    got.subscribe(tree.add)
    return await got
  }
  for await (const event of got as AsyncIterable<AgentEvent>) tree.add(event)
  return await got
}

/** The first of `work` and the signal's abort (plus a moment to settle); `undefined` when given up. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted)
    return Promise.race([work, new Promise<undefined>((r) => setTimeout(() => r(undefined), SETTLE_MS).unref())])
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => setTimeout(() => resolve(undefined), SETTLE_MS).unref()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    )
  })
}

const RE_RECORD = "the request changed since the recording (re-record with cassettes mode 'record')"

const errorText = (error: { code?: string; message?: string } | undefined, fallback: string) =>
  error ? `${error.code ? `${error.code}: ` : ''}${error.message ?? ''}` : fallback

/** Runs the task once, then every scorer (a scorer that throws scores 0 with the error as reason). */
export async function runTrial<I, E>(
  c: LoadedCase<I, E>,
  trial: number,
  options: EvaluateOptions<I, E>,
  cassette: CaseCassette,
  scorers: Scorer<I, E>[],
): Promise<Trial> {
  const started = performance.now()
  const usage = emptyUsage()
  const scorerUsage = emptyUsage()
  const tree = new TreeBuilder()
  const zero = (reason: string) => Object.fromEntries(scorers.map((s) => [s.name, { score: 0, reason }]))
  const done = (status: CaseStatus, rest: Partial<Trial>): Trial => ({
    status,
    scores: {},
    usage,
    scorerUsage,
    byModel: tree.byModel,
    durationMs: performance.now() - started,
    secrets: [...cassette.secrets],
    ...rest,
  })
  if (cassette.missing) return done('cassette_missing', { error: cassette.missing })

  const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)
  const signal =
    options.signal && timeout
      ? AbortSignal.any([options.signal, timeout])
      : (options.signal ?? timeout ?? new AbortController().signal)
  const aborted = (): CaseStatus => (timeout?.aborted && !options.signal?.aborted ? 'timeout' : 'aborted')

  let result: ExecResult | undefined
  try {
    const ctx = { signal, case: c, trial, provider: cassette.provider }
    // With cassettes, every exec the task opens without a provider of its own goes through the
    // case's cassette, whether or not the task passes ctx.provider.
    const task = () => options.task(c.input, ctx)
    const scoped = () => (cassette.scoped ? withProvider(cassette.provider!, task) : task())
    // The execs the task opens name their secrets as they open, before any model call is recorded.
    const listen = (secrets: readonly string[]) => secrets.forEach((s) => cassette.secrets.add(s))
    const work = settle(withSecretsListener(listen, scoped), tree)
    // A signal nothing can abort (no eval signal, no timeout) needs no watch.
    result = options.signal || timeout ? await untilAborted(work, signal) : await work
  } catch (error) {
    if (signal.aborted)
      return done(aborted(), { error: `the task stopped on abort: ${messageOf(error)}`, scores: zero('aborted') })
    return done('failed', {
      error: `the task threw: ${messageOf(error)}`,
      scores: zero(`the task threw: ${messageOf(error)}`),
    })
  }
  if (!result) {
    const status = aborted()
    return done(status, { error: `the task did not end within ${options.timeoutMs ?? 0} ms`, scores: zero(status) })
  }
  addUsage(usage, result.totalUsage ?? emptyUsage())
  const node = tree.root ?? treeOfResult(result)
  const json = toJson(result)
  if (result.status !== 'completed') {
    const code = result.error?.code
    if (code === 'replay_miss')
      return done('cassette_miss', { error: `${RE_RECORD}: ${result.error?.message ?? ''}`, result: json, tree: node })
    const status: CaseStatus = result.status === 'aborted' && signal.aborted ? aborted() : 'failed'
    const why = errorText(result.error, `the exec ended ${result.status}`)
    return done(status, {
      error: why,
      scores: zero(`the exec ended ${result.status}: ${why}`),
      result: json,
      tree: node,
    })
  }

  const scores: Record<string, ScoreResult> = {}
  const scoreCtx = { signal, tree: node, provider: cassette.wrap }
  for (const scorer of scorers) {
    try {
      const got = await scorer.score(c, result, scoreCtx)
      const value = typeof got === 'number' ? { score: got } : got
      if (typeof value?.score !== 'number' || Number.isNaN(value.score)) {
        scores[scorer.name] = { score: 0, reason: `the scorer returned ${JSON.stringify(got)}, not a score` }
        continue
      }
      const entry: ScoreResult = { score: Math.min(1, Math.max(0, value.score)) }
      if (value.reason !== undefined) entry.reason = value.reason
      if (value.usage) {
        entry.usage = value.usage
        addUsage(scorerUsage, value.usage)
      }
      scores[scorer.name] = entry
    } catch (error) {
      // A scorer's own model call (a judge's) missed its cassette: the case is not scored, not a 0.
      if ((error as { code?: unknown } | null)?.code === 'replay_miss')
        return done('cassette_miss', {
          error: `scorer ${scorer.name}: ${RE_RECORD}: ${messageOf(error)}`,
          result: json,
          tree: node,
        })
      scores[scorer.name] = {
        score: 0,
        reason: `the scorer threw: ${errorText(error as { code?: string; message?: string }, String(error))}`,
      }
    }
  }
  return done('completed', { scores, result: json, tree: node })
}

/** The result as JSON can hold it: errors as { code, message }, no resumable state. */
function toJson(result: ExecResult): ExecResult {
  // Most results are JSON already: kept as they are, not copied.
  if (!result.error && !result.pending) return result
  const { error, pending, ...rest } = result
  const out = { ...rest } as ExecResult
  if (error) out.error = { code: error.code, message: error.message } as ExecResult['error']
  if (pending) out.pending = { approvals: pending.approvals } as ExecResult['pending']
  return out
}
