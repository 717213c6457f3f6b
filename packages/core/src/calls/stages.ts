import { callSignature } from '../base/canonical.js'
import type {
  ControlDecision,
  ReceiptStatus,
  Tool,
  ToolCall,
  ToolOutput,
  ToolResultMessage,
} from '../contract/types.js'
import { emit, type ExecContext } from '../exec/context.js'
import { callHook, hookUntilAbort } from '../exec/hooks.js'
import type { PriorDecision } from '../state/exec-state.js'
import { journalFlag } from '../state/edited-steps.js'
import {
  idempotencyKeyOf,
  markPaused,
  priorDecision,
  recordDecision,
  replayedTool,
  throwIfContradicted,
} from '../state/tree-journal.js'
import { countsAsFailure, errorResult, makeReceipt, NOT_RUN, notRunAnswer } from './answers.js'
import { approvalContext, approvalRequest, decideApproval, needsDecision, previewOf } from './approvals.js'
import { runTool } from './body.js'
import { fail, type CallOutcome, type Finish, type Passage, type Pause, type Stage } from './passage.js'
import { checkArguments } from '../tools/tool-parameters.js'
import { controlOf } from '../tools/tool-control.js'
import { hasMissingResult, missingResultError } from '../tools/supplied-results.js'
import { afterTool, beforeTool, type BeforeJudgement } from '../guardrails/tools.js'

/**
 * The stages of a tool call, in order (docs/design.md). The first that answers ends the call; every
 * finished call then goes through the afterToolCall hook, its receipt and the breaker (`finishCall`).
 * A call the journal already answered is answered by the first stage, whole: nothing else runs.
 */
const STAGES: readonly (readonly [name: string, stage: Stage])[] = [
  ['journal replay', replayed],
  ['beforeToolCall hook', beforeHook],
  ['supplied result', suppliedResult],
  ['known tool and valid arguments', validCall],
  ['duplicate call', notDuplicate],
  ['approval', approval],
  ['tool guardrails', guardedBefore],
  ['result cache', cached],
  ['body', body],
]

/** One tool call through the stages, the first of which finds it in the journal when it was answered before. */
export async function runToolCall(ctx: ExecContext, call: ToolCall): Promise<CallOutcome> {
  const iteration = ctx.state.iterationsUsed
  const passage: Passage = {
    ctx,
    call,
    iteration,
    startedAt: Date.now(),
    tool: ctx.tools.get(call.name) as Tool,
    args: call.arguments,
    signature: callSignature(call.name, call.arguments),
    idempotencyKey: idempotencyKeyOf(ctx.journal, ctx.execId, iteration, call.id),
    approval: { required: false },
  }
  try {
    for (const [, stage] of STAGES) {
      const answered = stage(passage)
      // Synchronous stages cost no tick: most calls pass most stages without waiting.
      const outcome = answered instanceof Promise ? await answered : answered
      if (outcome === undefined) continue
      return 'kind' in outcome ? outcome : await finishCall(passage, outcome)
    }
    throw new Error('a tool call passed every stage without an answer')
  } catch (error) {
    // A hook (or a bug) threw before the call had a result: it is answered without running, and
    // the throw goes with the answer, so the call has its receipt and tool_end like any other.
    return {
      kind: 'result',
      ...notRunAnswer(ctx, call, 'skipped', NOT_RUN.execFailed),
      tripped: false,
      thrown: { error },
    }
  }
}

/**
 * A call this run answered before (docs/durability.md): its recorded answer, the body not run. A
 * contradicted step throws, so the call is answered without running and the exec fails with
 * journal_mismatch. The call's tool_start goes out here, replayed or live.
 */
function replayed(p: Passage): CallOutcome | undefined {
  const { ctx, call } = p
  let recorded
  try {
    recorded = replayedTool(ctx.journal, p.iteration, call)
  } catch (error) {
    emit(ctx, { type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments })
    throw error
  }
  if (!recorded) {
    emit(ctx, { type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments })
    return undefined
  }
  const { result, receipt } = recorded
  emit(ctx, {
    type: 'tool_start',
    toolCallId: call.id,
    toolName: call.name,
    args: call.arguments,
    ...journalFlag(result),
  })
  if (receipt.status === 'ok' && !ctx.state.succeeded.has(receipt.signature))
    ctx.state.succeeded.set(receipt.signature, call.id)
  return { kind: 'result', result, receipt, tripped: track(ctx, receipt.signature, receipt.status), replayed: true }
}

/** The beforeToolCall hook (the app's policy); `call` is the one to judge (after an edit, its new arguments). */
async function beforeHook(p: Passage, call: ToolCall = p.call): Promise<Finish | undefined> {
  const { ctx } = p
  const before = ctx.env.settings.hooks.beforeToolCall
  const hook = before
    ? await hookUntilAbort(ctx, () =>
        callHook('beforeToolCall', () =>
          before(call, { execId: ctx.execId, depth: ctx.depth, iteration: p.iteration }),
        ),
      )
    : undefined
  if (ctx.control.controller.signal.aborted) return fail(p, 'aborted', 'aborted')
  if (hook && hook.block) return fail(p, 'rejected', `blocked: ${hook.reason}`)
  return undefined
}

/** A suppliedResults tool without a result: nothing may be guessed, so the exec stops here. */
function suppliedResult(p: Passage): Finish | undefined {
  if (!p.tool || !hasMissingResult(p.tool)) return undefined
  const stop = missingResultError(p.call.name)
  return { ...fail(p, 'skipped', stop.message), stop }
}

/** The tool exists, and the arguments (or those an approver already edited) pass its schema. */
function validCall(p: Passage): Finish | undefined {
  const { ctx, call } = p
  if (!p.tool) {
    const names = [...ctx.tools.keys()]
    const available = names.length ? names.join(', ') : '(none)'
    return fail(p, 'unknown_tool', `unknown tool "${call.name}". Available tools: ${available}`)
  }
  const raw = call.invalidArguments
  if (raw !== undefined) {
    // Keyed on the raw text: two differently malformed calls are not the same failure.
    p.signature = callSignature(call.name, raw)
    return fail(p, 'invalid_arguments', `invalid arguments for ${call.name}: not a JSON object: ${raw.slice(0, 200)}`)
  }
  const prior = ctx.state.decisions.get(call.id) ?? priorDecision(ctx.journal, p.iteration, call.id)
  if (prior) {
    p.prior = prior
    if (prior.approved && prior.args) {
      p.args = prior.args
      p.signature = callSignature(call.name, prior.args)
    }
  }
  return parse(p, p.args)
}

function notDuplicate(p: Passage): Finish | undefined {
  const earlier = p.ctx.state.succeeded.get(p.signature)
  if (earlier === undefined || p.ctx.env.settings.duplicateCalls !== 'reject') return undefined
  return fail(
    p,
    'duplicate_call',
    `duplicate call: ${p.call.name} already ran with these arguments (call ${earlier}); use its result above`,
  )
}

async function approval(p: Passage): Promise<Finish | Pause | undefined> {
  const { ctx, call, tool, prior } = p
  const toolCtx = approvalContext(ctx, call, p.idempotencyKey)
  let decision = prior
  if (!decision) {
    const needs = needsDecision(tool, p.args, toolCtx)
    if (!(needs instanceof Promise ? await needs : needs)) return undefined
    p.approval = { required: true }
    const preview = await previewOf(ctx, tool, p.args, toolCtx)
    if (ctx.control.controller.signal.aborted) return fail(p, 'aborted', 'aborted')
    if (!preview.ok) return fail(p, 'tool_error', preview.message)
    const request = approvalRequest(ctx, call, p.args, preview.value)
    const decided = await decideApproval(ctx, request)
    if (decided === 'pause') {
      markPaused(ctx.journal, p.iteration, request)
      return { kind: 'pause', requests: [request] }
    }
    decision = decided
  }
  p.approval = { required: true }
  // Journaled before the call runs: a replay takes the same decision without asking again.
  const saved = recordDecision(ctx.journal, p.iteration, call.id, decision)
  if (saved) await saved
  // An abort while a decision was awaited: the call is not run.
  if (ctx.control.controller.signal.aborted) return fail(p, 'aborted', 'aborted')
  p.approval.decision = !decision.approved ? 'rejected' : decision.args ? 'edited' : 'approved'
  if (!decision.approved) return fail(p, 'rejected', `rejected: ${decision.reason}`)
  return revalidate(p, decision)
}

/**
 * An approved call passes its gates again before it runs, whichever way the decision came (a live
 * handler, runtime.resume, a journal, a fork): time passed while a person decided, so the policy or
 * what `prepare` reads may have changed, and an edit puts new arguments in front of the hook.
 */
async function revalidate(
  p: Passage,
  decision: Extract<PriorDecision, { approved: true }>,
): Promise<Finish | undefined> {
  const { ctx, call, tool } = p
  if (decision.args) {
    const invalid = parse(p, decision.args)
    if (invalid) return invalid
    p.signature = callSignature(call.name, p.args)
  }
  const blocked = await beforeHook(p, decision.args ? { ...call, arguments: decision.args } : call)
  if (blocked) return blocked
  const preview = await previewOf(ctx, tool, p.args, approvalContext(ctx, call, p.idempotencyKey))
  if (ctx.control.controller.signal.aborted) return fail(p, 'aborted', 'aborted')
  return preview.ok ? undefined : fail(p, 'tool_error', preview.message)
}

/** Guardrails hook: the tool guardrails' `before` checks, on the arguments that will run (after an approver's edit). */
function guardedBefore(p: Passage): Finish | undefined | Promise<Finish | undefined> {
  if (!p.ctx.env.guardrails?.tools.length) return undefined
  const judged = beforeTool(p.ctx, p.call, p.args, (p.guardrails = []))
  return judged instanceof Promise ? judged.then((j) => guardedFinish(p, j)) : guardedFinish(p, judged)
}

const guardedFinish = (p: Passage, judged: BeforeJudgement | undefined): Finish | undefined =>
  !judged
    ? undefined
    : 'reject' in judged
      ? fail(p, 'rejected', judged.reject)
      : { ...fail(p, 'skipped', NOT_RUN.guardrailTripped), stop: judged.trip }

function cached(p: Passage): Promise<Finish> | undefined {
  if (!p.tool.cacheable) return undefined
  const key = cacheKeyOf(p)
  p.cacheKey = key
  const hit = p.ctx.env.cache.get(key)
  if (!hit) return undefined
  // An entry this runtime's calls did not write has no decision: its envelope reads nothing (fails closed).
  const control = controlOf(p.tool) && (controlOnce.get(hit) ?? controlOf(p.tool)?.decide(undefined))
  return succeed(p, hit, 0, true, control)
}

async function body(p: Passage): Promise<Finish | Pause> {
  const { ctx, call, tool } = p
  const outcome = await runTool(ctx, tool, p.args, call, p.idempotencyKey)
  throwIfContradicted(ctx.journal)
  // A child exec of this body paused for approval: this call waits with it (the whole tree pauses).
  const below = ctx.control.pausedBelow.get(call.id)
  if (below) {
    ctx.control.pausedBelow.delete(call.id)
    if (ctx.journal) return { kind: 'pause', requests: below }
    p.childPaused = true
  }
  if (outcome.status !== 'ok')
    return fail(p, outcome.status, outcome.status === 'aborted' ? 'aborted' : outcome.message, outcome.attempts)
  if (tool.validateOutput) {
    const gate = tool.validateOutput(outcome.value)
    if (!gate.ok)
      return fail(
        p,
        'tool_error',
        `result of ${call.name} failed its output schema:\n- ${gate.issues.join('\n- ')}`,
        outcome.attempts,
      )
  }
  const control = controlOf(tool)?.decide(outcome.value)
  if (control) controlOnce.set(outcome.output, control)
  const key = p.cacheKey
  if (key !== undefined)
    ctx.env.cache.set(key, outcome.output, typeof tool.cacheable === 'object' ? tool.cacheable.ttlMs : undefined)
  return succeed(p, outcome.output, outcome.attempts, false, control)
}

/** What a control envelope decided for an output, so a cache hit decides what its first call did. */
const controlOnce = new WeakMap<ToolOutput, ControlDecision>()

function parse(p: Passage, args: Record<string, unknown>): Finish | undefined {
  const checked = checkArguments(p.tool, p.ctx.tools.strict, args)
  if (!checked.ok)
    return fail(p, 'invalid_arguments', `invalid arguments for ${p.call.name}:\n- ${checked.issues.join('\n- ')}`)
  p.args = checked.value
  return undefined
}

/** The signature, within the tool's scope when it has one (a NUL cannot occur in canonical JSON). */
function cacheKeyOf({ ctx, tool, signature, args }: Passage): string {
  const cacheable = tool.cacheable
  if (cacheable === true || !cacheable || !cacheable.scope) return signature
  const scope = cacheable.scope(args, { execId: ctx.execId, rootExecId: ctx.path[0] ?? ctx.execId, depth: ctx.depth })
  return `${String(scope)}\u0000${signature}`
}

async function succeed(
  p: Passage,
  output: ToolOutput,
  attempts: number,
  fromCache: boolean,
  control?: ControlDecision,
): Promise<Finish> {
  const { ctx, call } = p
  if (!ctx.state.succeeded.has(p.signature)) ctx.state.succeeded.set(p.signature, call.id)
  const result: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: output.content,
    isError: false,
  }
  if (output.details !== undefined) result.details = output.details
  // A body that returned while a nested exec of its own waits for approval did not finish its work.
  const finish: Finish = { status: p.childPaused ? 'paused' : 'ok', result, attempts, cached: fromCache }
  if (control) finish.control = control
  return finish
}

/** Every finished call: the afterToolCall hook may replace its result; then its receipt and the breaker. */
async function finishCall(
  p: Passage,
  { status, result, attempts = 0, cached = false, control, stop }: Finish,
): Promise<CallOutcome> {
  const { ctx, call } = p
  if (status === 'ok' && ctx.env.guardrails) {
    // Guardrails hook: the tool guardrails' `after` checks. A replacement is what the model reads; a trip withholds the result.
    const judging = afterTool(ctx, call, p.args, result, (p.guardrails ??= []))
    const judged = judging instanceof Promise ? await judging : judging
    if (judged && 'replace' in judged) result = judged.replace
    else if (judged) {
      result = errorResult(call.id, call.name, NOT_RUN.guardrailWithheld)
      stop = judged.trip
    }
  }
  // An abort does not wait for a hook: the result as it stands is the call's result.
  const after = ctx.env.settings.hooks.afterToolCall
  let replaced: ToolResultMessage | void | undefined
  let thrown: { error: unknown } | undefined
  try {
    if (after) replaced = await hookUntilAbort(ctx, () => callHook('afterToolCall', () => after(call, result)))
  } catch (error) {
    // The call ran: it keeps its result and receipt; the exec fails with the hook's error after.
    thrown = { error }
  }
  const receipt = makeReceipt({
    toolCallId: call.id,
    toolName: call.name,
    execId: ctx.execId,
    depth: ctx.depth,
    signature: p.signature,
    status,
    attempts,
    cached,
    startedAt: p.startedAt,
    approval: p.approval,
    ...(control && { control }),
    ...(p.guardrails?.length && { guardrails: p.guardrails }),
  })
  const outcome: CallOutcome = {
    kind: 'result',
    result: replaced ?? result,
    receipt,
    tripped: track(ctx, p.signature, status),
  }
  if (thrown ?? stop) outcome.thrown = thrown ?? { error: stop }
  return outcome
}

/** Updates the breaker streak of a signature; true when it reached the threshold. */
function track(ctx: ExecContext, signature: string, status: ReceiptStatus): boolean {
  // Consecutive: any successful call (another signature's included) resets every streak.
  if (status === 'ok') {
    ctx.state.streaks.clear()
    return false
  }
  if (!countsAsFailure(status)) return false
  const streak = (ctx.state.streaks.get(signature) ?? 0) + 1
  ctx.state.streaks.set(signature, streak)
  return streak >= ctx.env.settings.breakerThreshold
}
