import { messageOf } from '../contract/errors.js'
import { emit, type ExecContext } from '../exec/context.js'
import type { PriorDecision } from '../state/exec-state.js'
import type { ApprovalDecision, ApprovalRequest, Tool, ToolCall, ToolContext } from '../contract/types.js'

/** What a person (or an approve handler) is asked to decide about one call. */
export function approvalRequest(ctx: ExecContext, call: ToolCall, args: Record<string, unknown>): ApprovalRequest {
  return { toolCallId: call.id, toolName: call.name, args, execId: ctx.execId, depth: ctx.depth, path: ctx.path }
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

/**
 * Whether a call may run. Without `needsApproval` it may. With an `approve` handler anywhere up the
 * tree, the handler decides now (its request carries the ancestry path, and the
 * `approval_required` event reaches the root stream through the normal event flow). Without a
 * handler the exec pauses. A handler that throws rejects the call; an abort stops the wait.
 */
export async function decideApproval(
  ctx: ExecContext,
  tool: Tool,
  call: ToolCall,
  args: Record<string, unknown>,
  toolCtx: ToolContext,
): Promise<PriorDecision | undefined | 'pause'> {
  // No await on the common path (no predicate): a call without approval starts without extra ticks.
  const needs =
    typeof tool.needsApproval === 'function' ? await needsApprovalOf(tool, args, toolCtx) : tool.needsApproval === true
  if (!needs) return undefined
  const handler = ctx.env.approve
  if (!handler) return 'pause'
  const request = approvalRequest(ctx, call, args)
  emit(ctx, { type: 'approval_required', approvals: [request] })
  let decision: ApprovalDecision | typeof ABORTED
  try {
    decision = await untilAborted(
      Promise.resolve().then(() => handler(request)),
      ctx.control.controller.signal,
    )
  } catch (error) {
    return { approved: false, reason: `the approve handler failed: ${ctx.env.redact(messageOf(error))}` }
  }
  if (decision === ABORTED) return { approved: false, reason: 'aborted' }
  return normalizeDecision(decision)
}

const ABORTED = Symbol('aborted')

/** A person may never answer: an abort of the exec ends the wait (the handler's promise is dropped). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED)
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

function normalizeDecision(decision: ApprovalDecision): PriorDecision {
  if (decision === true) return { approved: true }
  if (decision === false) return { approved: false, reason: 'rejected by approver' }
  if (decision.approved) return decision.args ? { approved: true, args: decision.args } : { approved: true }
  return { approved: false, reason: decision.reason ?? 'rejected by approver' }
}
