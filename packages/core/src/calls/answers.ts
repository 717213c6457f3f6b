import { callSignature } from '../base/canonical.js'
import { emit, type ExecContext } from '../exec/context.js'
import { errorResult, makeReceipt } from './receipt.js'
import type { ReceiptStatus, ToolCall, ToolReceipt, ToolResultMessage } from '../contract/types.js'

/** What closes a call: the result the model reads and the receipt that records it. */
export type CallAnswer = { result: ToolResultMessage; receipt: ToolReceipt }

/** Batch keys a receipt may carry beside the call's own fields. */
export type ReceiptKeys = Partial<Pick<ToolReceipt, 'batchId' | 'itemKey' | 'callKey'>>

/** The error result and receipt of a call that is not run (nothing is recorded or emitted yet). */
export function unrunAnswer(
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
 * `replayed`: the answer came from a journal (docs/durability.md).
 */
export function closeCall(ctx: ExecContext, call: ToolCall, { result, receipt }: CallAnswer, replayed = false): void {
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
  emit(ctx, replayed ? { ...end, replayed: true } : end)
}

/** Answers a call with an error result, a receipt and a tool_end, without running it. */
export function answerUnrun(
  ctx: ExecContext,
  call: ToolCall,
  status: ReceiptStatus,
  text: string,
  keys?: ReceiptKeys,
): CallAnswer {
  const answer = unrunAnswer(ctx, call, status, text, keys)
  closeCall(ctx, call, answer)
  return answer
}
