import { ABORTED, internalController, onAbort, raceAbort } from '../base/abort-watch.js'
import { NestorError, messageOf } from '../contract/errors.js'
import type { Guardrail, GuardrailContext, GuardrailKind, GuardrailVerdictName } from '../contract/guardrail-types.js'
import type { EventPayload } from '../contract/event-types.js'
import { emit, type ExecContext } from '../exec/context.js'

/** A verdict made plain: what the loop and the call stages act on. */
export type Decision =
  | { verdict: 'pass'; reason?: string }
  | { verdict: 'tripwire'; reason: string; cause?: unknown }
  | { verdict: 'retry'; reason: string }
  | { verdict: 'reject'; reason: string }
  | { verdict: 'replace'; value: unknown }

/** Where a check runs: a tool call's phase, the typed output an output check sees. */
export type CheckSite = { toolCallId?: string; phase?: 'before' | 'after'; output?: unknown; hasOutput?: boolean }

/** The verdicts each kind of check may give; anything else is the guardrail's error (fail closed). */
const ALLOWED: Record<GuardrailKind | 'after', ReadonlySet<GuardrailVerdictName>> = {
  input: new Set(['pass', 'tripwire']),
  output: new Set(['pass', 'tripwire', 'retry']),
  tool: new Set(['pass', 'tripwire', 'reject']),
  after: new Set(['pass', 'tripwire', 'replace']),
}

/** The key of the ExecContext a guardrail context carries for core's own guardrails (the classifier). */
export const guardedExec: unique symbol = Symbol('guardedExec')
export type CoreGuardrailContext = GuardrailContext & { readonly [guardedExec]: ExecContext }

/**
 * Runs one check of `guardrail` and emits its `guardrail` event. A check that throws, times out or
 * answers something its kind cannot say trips with reason 'error' (passes with `failOpen`). A
 * synchronous check costs no tick; an abort of the exec ends the wait (the check passes: the
 * loop sees the abort).
 */
export function runCheck(
  ctx: ExecContext,
  guardrail: Guardrail,
  kind: GuardrailKind,
  site: CheckSite,
  invoke: (gctx: GuardrailContext) => unknown,
): Decision | Promise<Decision> {
  const started = performance.now()
  const timeoutMs = guardrail.timeoutMs
  const controller = timeoutMs !== undefined ? internalController() : undefined
  const signal = controller?.signal ?? ctx.control.controller.signal
  const gctx: { -readonly [K in keyof CoreGuardrailContext]: CoreGuardrailContext[K] } = {
    name: guardrail.name,
    kind,
    execId: ctx.execId,
    depth: ctx.depth,
    signal,
    messages: ctx.state.history,
    [guardedExec]: ctx,
  }
  if (site.hasOutput) gctx.output = site.output
  const allowed = ALLOWED[site.phase === 'after' ? 'after' : kind]
  const settle = (answer: unknown, thrown?: { error: unknown }): Decision => {
    let decision = thrown ? undefined : decisionOf(answer, allowed)
    if (!decision) {
      const why = thrown ? messageOf(thrown.error) : `an answer a ${kind} guardrail cannot give: ${shown(answer)}`
      decision = guardrail.failOpen
        ? { verdict: 'pass', reason: 'error' }
        : { verdict: 'tripwire', reason: 'error', cause: new Error(why, { cause: thrown?.error }) }
    }
    announce(ctx, guardrail.name, kind, site, decision, performance.now() - started)
    return decision
  }
  let answer: unknown
  try {
    answer = invoke(gctx)
  } catch (error) {
    return settle(undefined, { error })
  }
  if (!(answer instanceof Promise)) return settle(answer)
  return waitFor(ctx, answer, timeoutMs, controller).then(
    (value) => (value === ABORTED ? { verdict: 'pass' } : settle(value)),
    (error: unknown) => settle(undefined, { error }),
  )
}

/** The check's answer, or ABORTED when the exec aborts first; a timeout rejects and aborts the check. */
async function waitFor(
  ctx: ExecContext,
  answer: Promise<unknown>,
  timeoutMs: number | undefined,
  controller: AbortController | undefined,
): Promise<unknown> {
  const execSignal = ctx.control.controller.signal
  if (timeoutMs === undefined || !controller) return raceAbort(answer, execSignal)
  const unlink = onAbort(execSignal, () => controller.abort(execSignal.reason))
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`timed out after ${timeoutMs} ms`)
      controller.abort(error)
      reject(error)
    }, timeoutMs)
  })
  try {
    return await Promise.race([raceAbort(answer, execSignal), timeout])
  } finally {
    clearTimeout(timer)
    unlink()
  }
}

/** A verdict object read into a Decision; undefined when it is not one `allowed` holds. */
function decisionOf(answer: unknown, allowed: ReadonlySet<GuardrailVerdictName>): Decision | undefined {
  if (answer === undefined) return { verdict: 'pass' }
  if (typeof answer !== 'object' || answer === null) return undefined
  const a = answer as Record<string, unknown>
  let decision: Decision | undefined
  if (a.pass === true) decision = { verdict: 'pass' }
  else if (a.tripwire === true)
    decision = { verdict: 'tripwire', reason: typeof a.reason === 'string' && a.reason ? a.reason : 'tripwire' }
  else if (a.retry === 'feedback' && typeof a.feedback === 'string') decision = { verdict: 'retry', reason: a.feedback }
  else if (typeof a.reject === 'string') decision = { verdict: 'reject', reason: a.reject }
  else if ('replace' in a) decision = { verdict: 'replace', value: a.replace }
  return decision && allowed.has(decision.verdict) ? decision : undefined
}

function announce(
  ctx: ExecContext,
  name: string,
  kind: GuardrailKind,
  site: CheckSite,
  decision: Decision,
  durationMs: number,
): void {
  // Assigned, not spread: one of these per check, on the loop's hot path.
  const event: Extract<EventPayload, { type: 'guardrail' }> = {
    type: 'guardrail',
    name,
    kind,
    verdict: decision.verdict,
    durationMs,
  }
  if ('reason' in decision && decision.reason !== undefined) event.reason = decision.reason
  if (site.toolCallId !== undefined) event.toolCallId = site.toolCallId
  if (site.phase !== undefined) event.phase = site.phase
  emit(ctx, event)
}

/** The error a trip ends the exec with: `guardrail_tripped`, naming the guardrail and why. */
export function trippedError(name: string, kind: GuardrailKind, decision: Decision): NestorError {
  const reason = 'reason' in decision && decision.reason !== undefined ? decision.reason : 'tripwire'
  const cause = decision.verdict === 'tripwire' ? decision.cause : undefined
  const detail = cause ? ` (${messageOf(cause)})` : ''
  return new NestorError('guardrail_tripped', `${kind} guardrail ${name} tripped: ${reason}${detail}`, {
    guardrail: { name, kind, reason },
    ...(cause !== undefined && { cause }),
  })
}

function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return typeof value
  }
}
