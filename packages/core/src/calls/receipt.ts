import type { ReceiptStatus, ToolReceipt, ToolResultMessage } from '../contract/types.js'

/** Statuses that count toward the circuit breaker's streak for a signature. */
export const countsAsFailure = (status: ReceiptStatus): boolean =>
  status === 'tool_error' || status === 'timeout' || status === 'invalid_arguments' || status === 'unknown_tool'

export function errorResult(toolCallId: string, toolName: string, text: string): ToolResultMessage {
  return { role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError: true }
}

export function makeReceipt(fields: Omit<ToolReceipt, 'durationMs'> & { durationMs?: number }): ToolReceipt {
  return { ...fields, durationMs: fields.durationMs ?? Math.max(0, Date.now() - fields.startedAt) }
}
