import { emit, type ExecContext, type PriorDecision } from './exec-context.js'
import type { ApprovalDecision, ApprovalRequest, Tool, ToolCall, ToolContext } from './types.js'

/**
 * Whether a call may run. Without `needsApproval` it may. With an `approve` handler anywhere up the
 * tree, the handler decides now (its request carries the ancestry path, and the
 * `approval_required` event reaches the root stream through the normal event flow). Without a
 * handler the exec pauses.
 */
export async function decideApproval(
  ctx: ExecContext,
  tool: Tool,
  call: ToolCall,
  args: Record<string, unknown>,
  toolCtx: ToolContext,
): Promise<PriorDecision | undefined | 'pause'> {
  const needs = typeof tool.needsApproval === 'function' ? await tool.needsApproval(args, toolCtx) : tool.needsApproval === true
  if (!needs) return undefined
  const handler = ctx.tree.approve
  if (!handler) return 'pause'
  const request: ApprovalRequest = { toolCallId: call.id, toolName: call.name, args, execId: ctx.execId, depth: ctx.depth, path: ctx.path }
  emit(ctx, { type: 'approval_required', approvals: [request] })
  return normalizeDecision(await handler(request))
}

export function normalizeDecision(decision: ApprovalDecision): PriorDecision {
  if (decision === true) return { approved: true }
  if (decision === false) return { approved: false, reason: 'rejected by approver' }
  if (decision.approved) return decision.args ? { approved: true, args: decision.args } : { approved: true }
  return { approved: false, reason: decision.reason ?? 'rejected by approver' }
}
