import type { EventLog } from '../events/event-log.js'
import type { ToolCache } from '../tools/tool-cache.js'
import type { MessageQueue } from './message-queue.js'
import type { OutputGate } from '../schema/output.js'
import type { Runtime } from '../runtime/runtime.js'
import type { AgentEvent, EventPayload } from '../contract/event-types.js'
import type {
  ApprovalDecision,
  ApprovalRequest,
  Message,
  Provider,
  Tool,
  ToolChoice,
  ToolReceipt,
  ToolSpec,
  Usage,
} from '../contract/types.js'
import type { LoopHooks } from '../contract/exec-types.js'

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
 * What an exec runs with and does not change: the provider, model and rules it was opened with.
 * The one exception is the tool set, which live tool lists may replace between model calls.
 */
export type ExecEnv = {
  /** The runtime that owns this exec (for nested exec()). */
  readonly runtime: Runtime
  readonly provider: Provider
  readonly model: string
  readonly system?: string
  tools: Map<string, Tool>
  specs: ToolSpec[]
  readonly parallelToolCalls?: boolean
  settings: LoopSettings
  /** Sends a finished event to this exec's listeners and up through its ancestors' streams. */
  publish(event: AgentEvent): void
  redact<T>(value: T): T
  /** Strings the redactor hides (runtime secrets, the provider's key, ancestors' secrets). */
  readonly secrets: readonly string[]
  /** The runtime's result cache for `cacheable` tools, keyed by signature. */
  readonly cache: ToolCache
  /** Typed output: the schema the final answer must match (exec `output`). */
  output?: OutputGate
}

/**
 * What an exec has done so far, as data: the part a paused exec stores in its RunState
 * (run-state.ts turns one into the other) and a resumed exec starts from.
 */
export type ExecState = {
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
  /** Approvals decided before the loop reaches the calls (runtime.resume). */
  decisions: Map<string, PriorDecision>
  /** Reset to auto after the first model call when `resetToolChoice` is on. */
  toolChoice?: ToolChoice
}

/** How an exec is steered and observed while it runs; never stored. */
export type ExecControl = {
  controller: AbortController
  steering: MessageQueue
  followUp: MessageQueue
  log: EventLog<AgentEvent>
  seq: number
  /** Calls whose body opened a nested exec that paused: their receipt says `paused`, not `ok`. */
  pausedCalls: Set<string>
  /** Set when agent_end is out: nothing more is emitted for this exec, nothing joins its stream. */
  ended: boolean
}

/**
 * One running exec: where it sits in the tree, what it runs with (env), what it has done (state)
 * and how it is steered (control). The loop, the tool pipeline and the nesting code all work on
 * this object; nothing else holds per-exec state.
 */
export type ExecContext = {
  readonly execId: string
  parentExecId?: string
  /** The tool call whose body opened this exec (nested execs only). */
  parentToolCallId?: string
  readonly depth: number
  /** execIds from the root down to this exec. */
  readonly path: string[]
  parent?: ExecContext
  /** Budgets and the approval handler, shared by the whole exec tree. */
  readonly tree: TreeState
  readonly env: ExecEnv
  state: ExecState
  readonly control: ExecControl
}

/**
 * Stamps the common fields on a payload and publishes it. The payload object is reused.
 * `guarded`: the payload's strings already went through the exec's DeltaGuard, so the redactor
 * has nothing left to find (the hot path: one per streamed delta).
 */
export function emit(ctx: ExecContext, payload: EventPayload, guarded = false): AgentEvent {
  const event = payload as AgentEvent
  // agent_end is the last event: anything later (a body that ignored its abort) is dropped.
  if (ctx.control.ended) return event
  event.execId = ctx.execId
  if (ctx.parentExecId !== undefined) event.parentExecId = ctx.parentExecId
  if (ctx.parentToolCallId !== undefined) event.parentToolCallId = ctx.parentToolCallId
  event.depth = ctx.depth
  event.seq = ctx.control.seq++
  event.timestamp = Date.now()
  const safe = guarded ? event : ctx.env.redact(event)
  if (event.type === 'agent_end') ctx.control.ended = true
  ctx.env.publish(safe)
  return safe
}
