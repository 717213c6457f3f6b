// What a tool call leaves behind: its receipt (status, attempts, approval, guardrail verdicts) and
// the decision of its control envelope. Re-exported by types.ts, beside every other public type.
import type { ReceiptGuardrail } from './guardrail-types.js'

/** What a control envelope decided for one call. A result it cannot read fails closed: `stop`, with `reason`. */
export type ControlDecision = {
  status?: string
  decision: 'continue' | 'stop'
  /** The declared diagnosis fields the result has (a missing path is left out). */
  diagnosis: Record<string, unknown>
  /** Set when the call failed closed: why its result decided nothing. */
  reason?: string
}

/** Every status a receipt can have: one list, which the RunState schema checks against too. */
export const RECEIPT_STATUSES = [
  'ok',
  'tool_error',
  'timeout',
  'unknown_tool',
  'invalid_arguments',
  'duplicate_call',
  'rejected',
  'skipped',
  'aborted',
  // The body returned, but a nested exec it opened paused waiting for an approval.
  'paused',
] as const

export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number]

export type ToolReceipt = {
  toolCallId: string
  toolName: string
  execId: string
  depth: number
  /** Canonical signature: name + JSON of the arguments with sorted keys. */
  signature: string
  status: ReceiptStatus
  attempts: number
  cached: boolean
  startedAt: number
  durationMs: number
  batchId?: string
  itemKey?: string
  callKey?: string
  /** Set for a successful call of a tool with a control envelope. */
  control?: ControlDecision
  /** Whether the call needed a decision at its approval gate, and the decision it got (if any). */
  approval?: ReceiptApproval
  /** The verdicts of the tool guardrails that checked the call (docs/guardrails.md). */
  guardrails?: ReceiptGuardrail[]
}

/** The decisions a receipt names, as `runtime.resume` names them: approve, edit (approve new arguments), reject. */
export const APPROVAL_DECISIONS = ['approved', 'edited', 'rejected'] as const
export type ReceiptApproval = { required: boolean; decision?: (typeof APPROVAL_DECISIONS)[number] }
