import { callSignature } from './canonical.js'
import { emit, type ExecContext } from './exec-context.js'
import { countsAsFailure, errorResult, makeReceipt } from './receipt.js'
import { unrunAnswer } from './answer-call.js'
import { runTool } from './tool-runner.js'
import type { ApprovalRequest, CacheOptions, ReceiptStatus, ToolCall, ToolReceipt, ToolResultMessage } from './types.js'
import { idempotencyKeyOf } from './idempotency-key.js'
import { approvalContext, approvalRequest, decideApproval } from './approvals.js'
import { untilAbort } from './abort-watch.js'
import { callHook } from './hook-call.js'
import { markPaused, pausedBelow, priorDecision, recordDecision, replayedTool, throwIfContradicted } from './durable.js'

/**
 * What one call came to. `pause` means it waits for a decision and has no result yet: its own, or
 * those a child exec opened by its body waits for (the whole tree pauses).
 */
export type CallOutcome =
  | {
      kind: 'result'
      result: ToolResultMessage
      receipt: ToolReceipt
      tripped: boolean
      /** A hook threw (or a bug): the call still has its result and receipt, the exec fails after. */
      thrown?: { error: unknown }
      /** The answer came from the journal: the body did not run (docs/durability.md). */
      replayed?: true
    }
  | { kind: 'pause'; requests: ApprovalRequest[] }

/**
 * One tool call through every gate, in the order docs/design.md gives: hook, unknown name, argument
 * schema, duplicate, approval, cache, execution (timeout, retries), output gate, breaker, hook.
 */
export async function runToolCall(ctx: ExecContext, call: ToolCall, iteration: number): Promise<CallOutcome> {
  let recorded
  try {
    recorded = replayedTool(ctx, iteration, call)
  } catch (error) {
    // A contradicted step: answered without running, and the exec fails with journal_mismatch.
    emit(ctx, { type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments })
    return { kind: 'result', ...unrunAnswer(ctx, call, 'skipped', NOT_RUN), tripped: false, thrown: { error } }
  }
  if (recorded) {
    emit(ctx, { type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments, replayed: true })
    const { result, receipt } = recorded
    if (receipt.status === 'ok' && !ctx.state.succeeded.has(receipt.signature))
      ctx.state.succeeded.set(receipt.signature, call.id)
    return { kind: 'result', result, receipt, tripped: track(ctx, receipt.signature, receipt.status), replayed: true }
  }
  emit(ctx, { type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments })
  try {
    return await throughGates(ctx, call, iteration)
  } catch (error) {
    // A hook (or a bug) threw before the call had a result: it is answered without running, and
    // the throw goes with the answer, so the call has its receipt and tool_end like any other.
    return { kind: 'result', ...unrunAnswer(ctx, call, 'skipped', NOT_RUN), tripped: false, thrown: { error } }
  }
}

export const NOT_RUN = 'Tool call not executed: the exec failed'

async function throughGates(ctx: ExecContext, call: ToolCall, iteration: number): Promise<CallOutcome> {
  const startedAt = Date.now()
  const tool = ctx.env.tools.get(call.name)
  let args = call.arguments
  let signature = callSignature(call.name, args)

  const done = async (
    status: ReceiptStatus,
    result: ToolResultMessage,
    extra: { attempts?: number; cached?: boolean } = {},
  ): Promise<CallOutcome> => {
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
    const final = replaced ?? result
    const receipt = makeReceipt({
      toolCallId: call.id,
      toolName: call.name,
      execId: ctx.execId,
      depth: ctx.depth,
      signature,
      status,
      attempts: extra.attempts ?? 0,
      cached: extra.cached ?? false,
      startedAt,
    })
    const outcome: CallOutcome = { kind: 'result', result: final, receipt, tripped: track(ctx, signature, status) }
    if (thrown) outcome.thrown = thrown
    return outcome
  }
  const fail = (status: ReceiptStatus, text: string, attempts = 0) =>
    done(status, errorResult(call.id, call.name, text), { attempts })

  const before = ctx.env.settings.hooks.beforeToolCall
  const hook = before
    ? await hookUntilAbort(ctx, () =>
        callHook('beforeToolCall', () => before(call, { execId: ctx.execId, depth: ctx.depth, iteration })),
      )
    : undefined
  if (ctx.control.controller.signal.aborted) return fail('aborted', 'aborted')
  if (hook && hook.block) return fail('rejected', `blocked: ${hook.reason}`)
  if (!tool) {
    const names = [...ctx.env.tools.keys()]
    return fail(
      'unknown_tool',
      `unknown tool "${call.name}". Available tools: ${names.length ? names.join(', ') : '(none)'}`,
    )
  }
  if (call.invalidArguments !== undefined) {
    return fail(
      'invalid_arguments',
      `invalid arguments for ${call.name}: not a JSON object: ${call.invalidArguments.slice(0, 200)}`,
    )
  }

  const prior = ctx.state.decisions.get(call.id) ?? priorDecision(ctx, iteration, call.id)
  if (prior?.approved && prior.args) {
    args = prior.args
    signature = callSignature(call.name, args)
  }
  const checked = tool.validate ? tool.validate(args) : { ok: true as const, value: args }
  if (!checked.ok)
    return fail('invalid_arguments', `invalid arguments for ${call.name}:\n- ${checked.issues.join('\n- ')}`)
  const parsed = checked.value as Record<string, unknown>

  const earlier = ctx.state.succeeded.get(signature)
  if (earlier !== undefined && ctx.env.settings.duplicateCalls === 'reject') {
    return fail(
      'duplicate_call',
      `duplicate call: ${call.name} already ran with these arguments (call ${earlier}); use its result above`,
    )
  }

  const idempotencyKey = idempotencyKeyOf(ctx, iteration, call.id)
  const toolCtx = approvalContext(ctx, call, idempotencyKey)
  const decision = prior ?? (await decideApproval(ctx, tool, call, parsed, toolCtx))
  if (decision === 'pause') {
    const request = approvalRequest(ctx, call, parsed)
    markPaused(ctx, iteration, request)
    return { kind: 'pause', requests: [request] }
  }
  if (decision) {
    // Journaled before the call runs: a replay takes the same decision without asking again.
    const saved = recordDecision(ctx, iteration, call.id, decision)
    if (saved) await saved
  }
  // An abort while a decision was awaited: the call is not run.
  if (decision && ctx.control.controller.signal.aborted) return fail('aborted', 'aborted')
  if (decision && !decision.approved) return fail('rejected', `rejected: ${decision.reason}`)
  let runArgs = parsed
  if (decision?.approved && decision.args && decision !== prior) {
    const again = tool.validate ? tool.validate(decision.args) : { ok: true as const, value: decision.args }
    if (!again.ok)
      return fail('invalid_arguments', `invalid arguments for ${call.name}:\n- ${again.issues.join('\n- ')}`)
    runArgs = again.value as Record<string, unknown>
    signature = callSignature(call.name, runArgs)
  }

  const cacheKey = tool.cacheable ? cacheKeyOf(ctx, tool.cacheable, signature, runArgs) : undefined
  if (cacheKey !== undefined) {
    const hit = ctx.env.cache.get(cacheKey)
    if (hit) return succeed(ctx, call, signature, done, hit, { attempts: 0, cached: true })
  }
  const outcome = await runTool(ctx, tool, runArgs, call, idempotencyKey)
  throwIfContradicted(ctx)
  // A child exec of this body paused for approval: this call waits with it (the whole tree pauses).
  const below = pausedBelow(ctx, call.id)
  if (below) {
    ctx.control.pausedCalls.delete(call.id)
    return { kind: 'pause', requests: below }
  }
  if (outcome.status !== 'ok')
    return fail(outcome.status, outcome.status === 'aborted' ? 'aborted' : outcome.message, outcome.attempts)
  if (tool.validateOutput) {
    const gate = tool.validateOutput(outcome.value)
    if (!gate.ok)
      return fail(
        'tool_error',
        `result of ${call.name} failed its output schema:\n- ${gate.issues.join('\n- ')}`,
        outcome.attempts,
      )
  }
  if (cacheKey !== undefined)
    ctx.env.cache.set(cacheKey, outcome.output, typeof tool.cacheable === 'object' ? tool.cacheable.ttlMs : undefined)
  return succeed(ctx, call, signature, done, outcome.output, { attempts: outcome.attempts, cached: false })
}

/** The signature, within the tool's scope when it has one (a NUL cannot occur in canonical JSON). */
function cacheKeyOf(
  ctx: ExecContext,
  cacheable: true | CacheOptions,
  signature: string,
  args: Record<string, unknown>,
): string {
  if (cacheable === true || !cacheable.scope) return signature
  const scope = cacheable.scope(args, { execId: ctx.execId, rootExecId: ctx.path[0] ?? ctx.execId, depth: ctx.depth })
  return `${String(scope)}\u0000${signature}`
}

function succeed(
  ctx: ExecContext,
  call: ToolCall,
  signature: string,
  done: (
    status: ReceiptStatus,
    result: ToolResultMessage,
    extra: { attempts?: number; cached?: boolean },
  ) => Promise<CallOutcome>,
  output: { content: ToolResultMessage['content']; details?: unknown },
  extra: { attempts: number; cached: boolean },
): Promise<CallOutcome> {
  if (!ctx.state.succeeded.has(signature)) ctx.state.succeeded.set(signature, call.id)
  const result: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: output.content,
    isError: false,
  }
  if (output.details !== undefined) result.details = output.details
  // A body that returned while a nested exec of its own waits for approval did not finish its work.
  return done(ctx.control.pausedCalls.delete(call.id) ? 'paused' : 'ok', result, extra)
}

/** Updates the breaker streak of a signature; true when it reached the threshold. */
function track(ctx: ExecContext, signature: string, status: ReceiptStatus): boolean {
  if (status === 'ok') {
    ctx.state.streaks.delete(signature)
    return false
  }
  if (!countsAsFailure(status)) return false
  const streak = (ctx.state.streaks.get(signature) ?? 0) + 1
  ctx.state.streaks.set(signature, streak)
  return streak >= ctx.env.settings.breakerThreshold
}

const ABORTED = Symbol('aborted')

/** A hook's answer, or undefined as soon as the exec aborts (a hook may never settle). */
async function hookUntilAbort<T>(ctx: ExecContext, hook: () => T | Promise<T> | undefined): Promise<T | undefined> {
  try {
    // Called at once (an async wrapper turns a synchronous throw into a rejection).
    return await untilAbort((async () => hook())(), ctx.control.controller.signal, () => ABORTED)
  } catch (thrown) {
    if (thrown === ABORTED) return undefined
    throw thrown
  }
}
