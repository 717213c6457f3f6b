import type { EventLog } from './event-log.js'
import type { ToolCache } from './tool-cache.js'
import type { MessageQueue } from './message-queue.js'
import type { OutputGate } from './output.js'
import type {
  AgentEvent,
  ApprovalDecision,
  ApprovalRequest,
  EventPayload,
  LoopHooks,
  Message,
  Provider,
  Tool,
  ToolChoice,
  ToolReceipt,
  ToolSpec,
  Usage,
} from './types.js'

/** What an exec tree shares: budgets and the approval handler, owned by the root exec. */
export type TreeState = {
  iterations: number
  tokens: number
  startedAt: number
  maxTotalIterations?: number
  maxTotalTokens?: number
  deadlineMs?: number
  maxDepth: number
  approve?: (request: ApprovalRequest) => Promise<ApprovalDecision> | ApprovalDecision
}

/** Runtime settings the loop reads, resolved once per exec. */
export type LoopSettings = {
  toolExecution: 'sequential' | 'parallel'
  maxToolConcurrency: number
  duplicateCalls: 'reject' | 'allow'
  breakerThreshold: number
  toolTimeoutMs?: number
  maxRetries?: number
  streamIdleTimeoutMs?: number
  steering: 'interrupt' | 'after-turn'
  resetToolChoice: boolean
  stopAtTools: ReadonlySet<string>
  hooks: LoopHooks
  providerOptions?: Record<string, unknown>
}

/** Approvals decided before the loop reaches the calls (runtime.resume). */
export type PriorDecision = { approved: true; args?: Record<string, unknown> } | { approved: false; reason: string }

/**
 * The state of one running exec. The loop, the tool pipeline and the nesting code all work on
 * this object; nothing else holds per-exec state.
 */
export type ExecContext = {
  execId: string
  parentExecId?: string
  /** The tool call whose body opened this exec (nested execs only). */
  parentToolCallId?: string
  depth: number
  /** execIds from the root down to this exec. */
  path: string[]
  parent?: ExecContext
  provider: Provider
  model: string
  system?: string
  tools: Map<string, Tool>
  specs: ToolSpec[]
  toolChoice?: ToolChoice
  parallelToolCalls?: boolean
  history: Message[]
  /** Index in `history` where this exec's own messages start. */
  startIndex: number
  iterationsUsed: number
  iterationBudget: number
  usage: Usage
  totalUsage: Usage
  receipts: ToolReceipt[]
  /** Signature → id of the first call that succeeded with it, in this exec. */
  succeeded: Map<string, string>
  /** Consecutive failures per signature (the circuit breaker). */
  streaks: Map<string, number>
  toolCallIds: Set<string>
  steering: MessageQueue
  followUp: MessageQueue
  controller: AbortController
  settings: LoopSettings
  tree: TreeState
  log: EventLog<AgentEvent>
  seq: number
  /** Set when agent_end is out: nothing more is emitted for this exec, nothing joins its stream. */
  ended: boolean
  /** The runtime that owns this exec (for nested exec()). */
  runtime: unknown
  /** Sends a finished event to this exec's listeners and up through its ancestors' streams. */
  publish(event: AgentEvent): void
  redact<T>(value: T): T
  /** Strings the redactor hides (runtime secrets, the provider's key, ancestors' secrets). */
  secrets: readonly string[]
  /** The runtime's result cache for `cacheable` tools, keyed by signature. */
  cache: ToolCache
  decisions: Map<string, PriorDecision>
  /** Typed output: the schema the final answer must match (exec `output`). */
  output?: OutputGate
}

/** Stamps the common fields on a payload and publishes it. The payload object is reused. */
export function emit(ctx: ExecContext, payload: EventPayload): AgentEvent {
  const event = payload as AgentEvent
  // agent_end is the last event: anything later (a body that ignored its abort) is dropped.
  if (ctx.ended) return event
  event.execId = ctx.execId
  if (ctx.parentExecId !== undefined) event.parentExecId = ctx.parentExecId
  if (ctx.parentToolCallId !== undefined) event.parentToolCallId = ctx.parentToolCallId
  event.depth = ctx.depth
  event.seq = ctx.seq++
  event.timestamp = Date.now()
  const safe = ctx.redact(event)
  if (event.type === 'agent_end') ctx.ended = true
  ctx.publish(safe)
  return safe
}
