// The public types of the event stream: what an exec emits, in order.

import type {
  ApprovalRequest,
  AssistantMessage,
  InjectedPrompt,
  Message,
  NestorErrorLike,
  PendingInput,
  ToolReceipt,
  LogLevel,
  ToolResultMessage,
} from './types.js'
import type { ExecResult } from './exec-types.js'
import type { GuardrailKind, GuardrailVerdictName } from './guardrail-types.js'

export type MessageDelta =
  { kind: 'text' | 'thinking'; text: string } | { kind: 'toolCall'; id: string; name: string; argumentsDelta: string }

/**
 * Fields on every event. `seq` is total within one exec; `depth` 0 is the root. A nested exec's
 * events carry `parentExecId` and `parentToolCallId`: the exec and the tool call whose body opened it.
 */
export type EventBase = {
  execId: string
  parentExecId?: string
  parentToolCallId?: string
  depth: number
  seq: number
  timestamp: number
}

type EventBody =
  | { type: 'agent_start'; input: Message[]; toolNames: string[]; iterationBudget: number }
  /** `model`: the model this turn's request names (after `prepareTurn`), known before the call. */
  | { type: 'turn_start'; iteration: number; iterationBudget: number; model: string }
  /**
   * `replayed: true` when the message comes from a journal (no model call, no deltas): see
   * docs/durability.md. `edited: true` instead when a fork's edit wrote it (docs/evals.md): nothing
   * recorded it. The same pair marks tool_start and tool_end.
   */
  /**
   * `injectedPrompt`: the provider added instructions to this call's system prompt (the text tool
   * protocol of a model without native tools): what kind, their length and their text.
   */
  | {
      type: 'message_start'
      message: Message
      replayed?: true
      edited?: true
      injectedPrompt?: { kind: InjectedPrompt['kind']; length: number; text: string }
    }
  | { type: 'message_delta'; delta: MessageDelta }
  /** `abandoned: true`: a durable run's process died mid-message; the turn runs again, readers drop this one (docs/dbos.md). */
  | { type: 'message_end'; message: Message; replayed?: true; edited?: true; abandoned?: true }
  | {
      type: 'tool_start'
      toolCallId: string
      toolName: string
      args: Record<string, unknown>
      replayed?: true
      edited?: true
    }
  | { type: 'tool_update'; toolCallId: string; update: unknown }
  /** A tool body's log line (`ctx.log`); served over MCP it is a `notifications/message`. */
  | { type: 'tool_log'; toolCallId: string; level: LogLevel; message: string; data?: unknown }
  | {
      type: 'tool_end'
      toolCallId: string
      toolName: string
      result: ToolResultMessage
      isError: boolean
      durationMs: number
      receipt: ToolReceipt
      /** The result comes from a journal: the tool body did not run again. */
      replayed?: true
      /** The result is a fork's edit (docs/evals.md): the body did not run, and nothing recorded it. */
      edited?: true
    }
  | { type: 'approval_required'; approvals: ApprovalRequest[] }
  /** Questions a tool body asked (`ctx.ask`), from the exec whose call asked: docs/asking.md. */
  | { type: 'input_required'; inputs: PendingInput[] }
  | { type: 'retry'; attempt: number; delayMs: number; error: NestorErrorLike }
  | { type: 'turn_end'; iteration: number; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: 'partial_output'; partial: unknown }
  /**
   * The history was compacted before a model call (`reason: 'limit'`) or after the provider said
   * the request was too long (`'overflow'`): see docs/context.md.
   */
  | {
      type: 'context_compacted'
      strategy: 'summarize' | 'truncate' | 'custom'
      reason: 'limit' | 'overflow'
      before: { messages: number; tokens: number }
      after: { messages: number; tokens: number }
      replayed?: true
    }
  /** The exec goes on as another agent (docs/handoffs.md): `to` answers from the next model call on. */
  | { type: 'handoff'; from?: string; to: string; toolCallId: string }
  /**
   * A guardrail checked the input, the output or a tool call (`toolCallId`, `phase`): see
   * docs/guardrails.md.
   */
  | {
      type: 'guardrail'
      name: string
      kind: GuardrailKind
      verdict: GuardrailVerdictName
      reason?: string
      durationMs: number
      toolCallId?: string
      phase?: 'before' | 'after'
    }
  | { type: 'agent_end'; result: ExecResult }

export type AgentEvent = EventBase & EventBody
export type AgentEventType = AgentEvent['type']
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>
/** An event as the loop builds it, before the emitter stamps the common fields. */
export type EventPayload = EventBody
