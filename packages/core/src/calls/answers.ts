import { callSignature } from '../base/canonical.js'
import type { ReceiptStatus, ToolCall, ToolReceipt, ToolResultMessage } from '../contract/types.js'
import { emit, type ExecContext } from '../exec/context.js'
import type { CallAnswer } from '../state/tree-journal.js'
import { journalFlag } from '../state/edited-steps.js'

export type { CallAnswer }

/** Batch keys a receipt may carry beside the call's own fields. */
export type ReceiptKeys = Partial<Pick<ToolReceipt, 'batchId' | 'itemKey' | 'callKey'>>

/** What the model reads as the result of a call answered without running its body. */
export const NOT_RUN = {
  execFailed: 'Tool call not executed: the exec failed',
  modelFailed: 'Tool call not executed: the model response failed',
  lengthCut: 'Tool call not executed: the response was cut off by the length limit, so its arguments may be incomplete',
  steering: 'Skipped due to queued user message',
  aborted: 'aborted',
  breaker: (tool: string) => `Skipped: tool ${tool} tripped the circuit breaker`,
  toolBudget: 'Skipped: the tool call budget of this exec is used up',
  stoppedAt: (tool: string) => `Skipped: the exec stopped at tool ${tool}`,
  controlStop: (tool: string) => `Skipped: the control envelope of tool ${tool} stopped the exec`,
  needsApproval: 'rejected: needs approval and the runtime has no approve handler',
  guardrailTripped: 'Tool call not executed: a guardrail tripped',
  guardrailWithheld: 'The result of this call was withheld: a guardrail tripped',
} as const

/** Statuses that count toward the circuit breaker's streak: blocked, rejected and repeated calls burn budget too. */
export const countsAsFailure = (status: ReceiptStatus): boolean =>
  status === 'tool_error' ||
  status === 'timeout' ||
  status === 'invalid_arguments' ||
  status === 'unknown_tool' ||
  status === 'rejected' ||
  status === 'duplicate_call'

export function errorResult(toolCallId: string, toolName: string, text: string): ToolResultMessage {
  return { role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError: true }
}

export function makeReceipt(fields: Omit<ToolReceipt, 'durationMs'> & { durationMs?: number }): ToolReceipt {
  // A call answered before its approval gate needed no decision there.
  return {
    ...fields,
    approval: fields.approval ?? { required: false },
    durationMs: fields.durationMs ?? Math.max(0, Date.now() - fields.startedAt),
  }
}

/** The error result and receipt of a call that is not run (nothing is recorded or emitted yet). */
export function notRunAnswer(
  ctx: ExecContext,
  call: ToolCall,
  status: ReceiptStatus,
  text: string,
  keys: ReceiptKeys = {},
): CallAnswer {
  const receipt = makeReceipt({
    toolCallId: call.id,
    toolName: call.name,
    execId: ctx.execId,
    depth: ctx.depth,
    signature: callSignature(call.name, call.arguments),
    status,
    attempts: 0,
    cached: false,
    startedAt: Date.now(),
    durationMs: 0,
    ...keys,
  })
  return { result: errorResult(call.id, call.name, text), receipt }
}

/**
 * Records a call's receipt and emits its tool_end: every call that had a tool_start gets one.
 * `replayed`: the answer came from a journal (docs/durability.md). Returns the answer.
 */
export function closeCall(ctx: ExecContext, call: ToolCall, answer: CallAnswer, replayed = false): CallAnswer {
  const { result, receipt } = answer
  ctx.state.receipts.push(receipt)
  const end = {
    type: 'tool_end' as const,
    toolCallId: call.id,
    toolName: call.name,
    result,
    isError: result.isError,
    durationMs: receipt.durationMs,
    receipt,
  }
  emit(ctx, replayed ? { ...end, ...journalFlag(result) } : end)
  return answer
}
