import { ABORTED, raceAbort } from '../base/abort-watch.js'
import { NestorError, messageOf } from '../contract/errors.js'
import { emit, type ExecContext } from '../exec/context.js'
import type { PriorDecision } from '../state/exec-state.js'
import type { ApprovalRequest, JsonValue, Tool, ToolCall, ToolContext } from '../contract/types.js'
import { decisionOf } from '../state/decision.js'
import { idempotencyKeyOf, markPaused } from '../state/tree-journal.js'
import { checkArguments } from '../tools/tool-parameters.js'

/** What a person (or an approve handler) is asked to decide about one call, with the tool's preview. */
export function approvalRequest(
  ctx: ExecContext,
  call: ToolCall,
  args: Record<string, unknown>,
  preview?: JsonValue,
): ApprovalRequest {
  const request: ApprovalRequest = {
    toolCallId: call.id,
    toolName: call.name,
    args,
    execId: ctx.execId,
    depth: ctx.depth,
    path: ctx.path,
  }
  if (preview !== undefined) request.preview = preview
  return request
}

/** A tool's preview of a call, as JSON; or why there is none (`prepare` threw or returned no JSON). */
export type Preview = { ok: true; value?: JsonValue } | { ok: false; message: string }

/**
 * Runs the tool's `prepare`. Its value is copied through JSON here, so the event, the pending list
 * and the stored state all hold the same plain value; one JSON cannot hold fails the call.
 */
export async function previewOf(
  ctx: ExecContext,
  tool: Tool,
  args: Record<string, unknown>,
  toolCtx: ToolContext,
): Promise<Preview> {
  if (!tool.prepare) return { ok: true }
  const name = tool.spec.name
  const prepare = tool.prepare
  let value: unknown
  try {
    // A prepare that never settles must not hold the exec past an abort (the stage answers `aborted`).
    value = await raceAbort(
      Promise.resolve().then(() => prepare(args, toolCtx)),
      ctx.control.controller.signal,
    )
  } catch (error) {
    return { ok: false, message: `prepare of ${name} failed: ${ctx.env.redact(messageOf(error))}` }
  }
  if (value === ABORTED) return { ok: false, message: 'aborted' }
  if (value === undefined) return { ok: true }
  try {
    const text = JSON.stringify(value) as string | undefined
    if (text === undefined) throw new Error(`a ${typeof value} is not JSON`)
    return { ok: true, value: ctx.env.redact(JSON.parse(text) as JsonValue) }
  } catch (error) {
    return { ok: false, message: `prepare of ${name} returned a preview that is not JSON: ${messageOf(error)}` }
  }
}

/** The ToolContext a `needsApproval` predicate sees: the exec's signal, no progress updates or log lines. */
export function approvalContext(ctx: ExecContext, call: ToolCall, idempotencyKey: () => string): ToolContext {
  return {
    signal: ctx.control.controller.signal,
    toolCallId: call.id,
    get idempotencyKey() {
      return idempotencyKey()
    },
    execId: ctx.execId,
    depth: ctx.depth,
    update: () => {},
    log: () => {},
    exec: () => {
      throw new NestorError(
        'no_runtime',
        'ctx.exec() opens a nested exec from a tool body, not from needsApproval or prepare',
      )
    },
    ask: () =>
      Promise.reject(
        new NestorError('input_unavailable', 'ctx.ask() asks from a tool body, not from needsApproval or prepare'),
      ),
  }
}

/**
 * Whether a call needs a decision. A predicate that throws counts as "yes": when the policy
 * cannot be evaluated, a person (or the handler) decides, never the model alone.
 */
export async function needsApprovalOf(
  tool: Tool,
  args: Record<string, unknown>,
  toolCtx: ToolContext,
): Promise<boolean> {
  if (typeof tool.needsApproval !== 'function') return tool.needsApproval === true
  try {
    return await tool.needsApproval(args, toolCtx)
  } catch {
    return true
  }
}

/** Whether a call needs a decision; no await on the common path (no predicate), so no extra tick. */
export function needsDecision(
  tool: Tool,
  args: Record<string, unknown>,
  toolCtx: ToolContext,
): boolean | Promise<boolean> {
  return typeof tool.needsApproval === 'function' ? needsApprovalOf(tool, args, toolCtx) : tool.needsApproval === true
}

/**
 * The decision on a call that needs one. With an `approve` handler anywhere up the tree, the
 * handler decides now (its request carries the ancestry path, and the `approval_required` event
 * reaches the root stream through the normal event flow). Without a handler the exec pauses. A
 * handler that throws rejects the call; an abort stops the wait. An answer that is not a decision
 * approves nothing: the exec fails `hook_error` saying what came back.
 */
export async function decideApproval(ctx: ExecContext, request: ApprovalRequest): Promise<PriorDecision | 'pause'> {
  const handler = ctx.env.approve
  if (!handler) return 'pause'
  emit(ctx, { type: 'approval_required', approvals: [request] })
  let decision: unknown
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => handler(request)),
      ctx.control.controller.signal,
    )
  } catch (error) {
    return { approved: false, reason: `the approve handler failed: ${ctx.env.redact(messageOf(error))}` }
  }
  if (decision === ABORTED) return { approved: false, reason: 'aborted' }
  const checked = decisionOf(decision, true)
  if (typeof checked === 'string')
    throw new NestorError(
      'hook_error',
      `the approve handler for call ${request.toolCallId} returned ${ctx.env.redact(checked)}`,
    )
  return checked
}

/**
 * After a sequential pause, the calls behind the first pending one wait too (their order matters).
 * Those that will need a decision join `pending` now, so a person can decide them all at once; a
 * call its own gates would refuse (bad arguments, a failing preview) fails there when reached.
 */
export async function listLaterApprovals(ctx: ExecContext, calls: ToolCall[], pending: ApprovalRequest[]) {
  const first = pending[0]
  if (!first) return
  const start = calls.findIndex((c) => c.id === first.toolCallId) + 1
  for (const call of calls.slice(start)) {
    const tool = ctx.tools.get(call.name)
    if (!tool?.needsApproval || ctx.state.decisions.has(call.id)) continue
    const checked = checkArguments(tool, ctx.tools.strict, call.arguments)
    if (!checked.ok) continue
    const toolCtx = approvalContext(
      ctx,
      call,
      idempotencyKeyOf(ctx.journal, ctx.execId, ctx.state.iterationsUsed, call.id),
    )
    if (!(await needsApprovalOf(tool, checked.value, toolCtx))) continue
    const preview = await previewOf(ctx, tool, checked.value, toolCtx)
    if (!preview.ok) continue
    const request = approvalRequest(ctx, call, checked.value, preview.value)
    markPaused(ctx.journal, ctx.state.iterationsUsed, request)
    pending.push(request)
  }
}
