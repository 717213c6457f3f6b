import type { NestorError } from '../contract/errors.js'
import type {
  ApprovalRequest,
  ControlDecision,
  ReceiptApproval,
  ReceiptStatus,
  Tool,
  ToolCall,
  ToolReceipt,
  ToolResultMessage,
} from '../contract/types.js'
import type { ExecContext } from '../exec/context.js'
import type { ReceiptGuardrail } from '../contract/guardrail-types.js'
import type { PriorDecision } from '../state/exec-state.js'
import { errorResult } from './answers.js'

// One call on its way through the stages of stages.ts, and what a stage may answer.

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
      /**
       * A hook threw (or a bug), or the call stops the exec (`missing_result`): the call still has
       * its result and receipt, the exec fails after.
       */
      thrown?: { error: unknown }
      /** The answer came from the journal: the body did not run (docs/durability.md). */
      replayed?: true
    }
  | { kind: 'pause'; requests: ApprovalRequest[] }

/** One call on its way through the stages; each stage may narrow what the next ones see. */
export type Passage = {
  readonly ctx: ExecContext
  readonly call: ToolCall
  /** The model turn the call belongs to: it names the call's journal steps. */
  readonly iteration: number
  readonly startedAt: number
  tool: Tool
  /** The arguments the body gets (an approver's edit replaces the model's). */
  args: Record<string, unknown>
  signature: string
  /** A decision taken before this call came by (runtime.resume or the journal). */
  prior?: PriorDecision
  /** The call's idempotency key, computed when first read (ToolContext.idempotencyKey). */
  readonly idempotencyKey: () => string
  /** The call's key in the runtime's result cache, for a `cacheable` tool. */
  cacheKey?: string
  /** A child exec of the body paused, in an exec that cannot pause (a batch): receipt `paused`. */
  childPaused?: boolean
  /** What the approval gate found: the receipt's `approval`. */
  approval: ReceiptApproval
  /** The tool guardrails' verdicts on the call: the receipt's `guardrails` (docs/guardrails.md). */
  guardrails?: ReceiptGuardrail[]
}

/** How a stage ends a call: a status and the result the model reads; `stop` fails the exec after it. */
export type Finish = {
  status: ReceiptStatus
  result: ToolResultMessage
  attempts?: number
  cached?: boolean
  control?: ControlDecision
  stop?: NestorError
}
export type Pause = Extract<CallOutcome, { kind: 'pause' }>
/** A stage passes the call on (undefined), finishes it, pauses it, or answers it whole (a replay). */
export type Stage = (p: Passage) => Finish | CallOutcome | undefined | Promise<Finish | CallOutcome | undefined>

/** A stage's answer that fails the call with `text` (the model reads it as the call's error result). */
export const fail = (p: Passage, status: ReceiptStatus, text: string, attempts = 0): Finish => ({
  status,
  result: errorResult(p.call.id, p.call.name, text),
  attempts,
})
