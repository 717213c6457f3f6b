import type { AgentEvent, EventPayload } from '../contract/event-types.js'
import type {
  ContextOptions,
  ExecInput,
  ExecOptions,
  ExecResult,
  LoopHooks,
  RuntimeOptions,
} from '../contract/exec-types.js'
import type { ApprovalDecision, ApprovalRequest, AskHandler, Message, Provider } from '../contract/types.js'
import type { TextGuardrail, ToolGuardrail } from '../contract/guardrail-types.js'
import type { EventLog } from '../events/event-log.js'
import type { OutputGate } from '../schema/output.js'
import { journalFlag } from '../state/edited-steps.js'
import type { WaitingInput } from '../state/answer-journal.js'
import type { ExecState } from '../state/exec-state.js'
import type { ExecJournal } from '../state/tree-journal.js'
import type { ToolCache } from '../tools/tool-cache.js'
import type { ToolSlots } from '../tools/tool-slots.js'
import type { MessageQueue } from './message-queue.js'
import type { ToolSet } from './tool-set.js'

/**
 * What an exec needs of the runtime that opened it: its options, and `exec` for the module-level
 * exec() of a tool body. Narrow on purpose: the context never depends on the Runtime class.
 */
export type ExecHost = {
  readonly options: Readonly<RuntimeOptions>
  exec(input: ExecInput, options?: ExecOptions): AsyncIterable<AgentEvent> & PromiseLike<ExecResult>
  /** A child exec of `under` opened by Nestor itself, not by a tool body (the context summarizer). */
  [openNested](under: Nesting, input: ExecInput, options: ExecOptions): PromiseLike<ExecResult>
}

/**
 * Where a child exec sits: its parent, the step of the parent it belongs to (the tool call whose
 * body opened it, or a step of the loop's own, such as a context summary) and the signal that aborts it.
 */
export type Nesting = { ctx: ExecContext; toolCallId: string; signal: AbortSignal }

/** The key of `ExecHost`'s nested opener: core's own, out of reach of applications. */
export const openNested: unique symbol = Symbol('openNested')

export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision> | ApprovalDecision

/** What an exec tree shares: its budgets and what they have used, owned by the root exec. */
export type TreeState = {
  iterations: number
  tokens: number
  startedAt: number
  /** Tool calls run anywhere in the tree (a paused call counts once it runs). */
  toolCalls: number
  maxTotalIterations?: number
  maxTotalToolCalls?: number
  maxTotalTokens?: number
  /** Dollars the tree's priced turns cost, and its limit (maxTotalCostUsd). */
  costUsd: number
  maxTotalCostUsd?: number
  deadlineMs?: number
  maxDepth: number
}

/** Runtime settings the loop reads, resolved once per exec. */
export type LoopSettings = {
  toolExecution: 'sequential' | 'parallel'
  maxToolConcurrency: number
  duplicateCalls: 'reject' | 'allow'
  breakerThreshold: number
  strictArguments: boolean
  toolTimeoutMs?: number
  maxRetries?: number
  streamIdleTimeoutMs?: number
  steering: 'interrupt' | 'after-turn'
  resetToolChoice: boolean
  stopAtTools: ReadonlySet<string>
  hooks: LoopHooks
  providerOptions?: Record<string, unknown>
  /** `think` of the exec, else of the runtime: sent on every request as `ModelRequest.think`. */
  think?: boolean
}

/** What an exec runs with, fixed when it opens: the provider, model and rules. */
export type ExecEnv = {
  /** The runtime that owns this exec (for nested exec()). */
  readonly host: ExecHost
  readonly provider: Provider
  readonly model: string
  readonly system?: string
  readonly parallelToolCalls?: boolean
  /** This exec's own stopAtTools (in settings too): a paused state keeps it. */
  readonly stopAtTools?: readonly string[]
  /** The declared owner whose defaults it runs with: a paused state keeps it, so a resume does too. */
  readonly owner?: string
  readonly settings: LoopSettings
  /** Sends a finished event to this exec's listeners and up through its ancestors' streams. */
  publish(event: AgentEvent): void
  redact<T>(value: T): T
  /** Strings the redactor hides (runtime secrets, the provider's key, ancestors' secrets). */
  readonly secrets: readonly string[]
  /** The runtime's result cache for `cacheable` tools, keyed by signature. */
  readonly cache: ToolCache
  /** The runtime's per-tool `concurrency` slots, shared by its execs and batches. */
  readonly slots: ToolSlots
  /** Typed output: the schema the final answer must match (exec `output`). */
  readonly output?: OutputGate
  /** Decides calls that need approval: the nearest handler up the tree; without one the exec pauses. */
  readonly approve?: Approver
  /** Answers `ctx.ask`: the exec's own handler, else the nearest up the tree, else the runtime's. */
  readonly ask?: AskHandler
  /** Context management (context/): the exec's own, else its parent's, else the runtime's. */
  readonly context?: ContextOptions
  /** The exec's dollar budget: its own option, else the runtime's. */
  readonly maxCostUsd?: number
  /** The guardrails it runs with (docs/guardrails.md); absent when there are none. */
  readonly guardrails?: GuardrailSet
}

/** An exec's guardrails: its own, its runtime's and those its ancestors pass down (guardrails/define.ts). */
export type GuardrailSet = {
  readonly input: readonly TextGuardrail[]
  readonly output: readonly TextGuardrail[]
  readonly tools: readonly ToolGuardrail[]
}

/**
 * What context management (context/fit.ts) learns of an exec as it runs; never stored: the window
 * it runs in (asked once), and from which message on the provider's reported usage describes the
 * history as it now is (an older report counts messages a compaction cut).
 */
export type WindowState = {
  limits?: Promise<{ maxTokens: number; reserveTokens: number } | undefined>
  trustedFrom: number
}

/** How an exec is steered and observed while it runs; never stored. */
export type ExecControl = {
  controller: AbortController
  steering: MessageQueue
  followUp: MessageQueue
  log: EventLog<AgentEvent>
  seq: number
  /**
   * What a call waits for, per tool call id: the approvals and questions of the child execs its
   * body opened, and its own questions (ctx.ask). The call waits with them.
   */
  pausedBelow: Map<string, Waiting>
  /** Removes the links to the signals that abort this exec (called when it ends). */
  unlink: () => void
  /** Set when agent_end is out: nothing more is emitted for this exec, nothing joins its stream. */
  ended: boolean
}

/** Decisions and answers a paused call waits for. */
export type Waiting = { approvals: ApprovalRequest[]; inputs: WaitingInput[] }

/** What the call `toolCallId` of this exec waits for, made empty on first use. */
export function waitingOf(ctx: ExecContext, toolCallId: string): Waiting {
  let waiting = ctx.control.pausedBelow.get(toolCallId)
  if (!waiting) ctx.control.pausedBelow.set(toolCallId, (waiting = { approvals: [], inputs: [] }))
  return waiting
}

/**
 * One running exec: where it sits in the tree, what it runs with (env), the tools it offers, what
 * it has done (state), how it is steered (control) and where it records its steps (journal). The
 * loop, the call stages and the nesting code all work on this object; nothing else holds
 * per-exec state.
 */
export type ExecContext = {
  readonly execId: string
  readonly parentExecId?: string
  /** The tool call whose body opened this exec (nested execs only). */
  readonly parentToolCallId?: string
  readonly depth: number
  /** execIds from the root down to this exec. */
  readonly path: string[]
  readonly parent?: ExecContext
  /** Budgets shared by the whole exec tree. */
  readonly tree: TreeState
  /** Fixed while one agent answers; a handoff replaces it with its target's (handoffs/pass.ts). */
  env: ExecEnv
  /** The tools the model is offered: fixed, unless some come from a live list (docs/mcp.md) or a handoff passes the exec on. */
  tools: ToolSet
  readonly state: ExecState
  readonly control: ExecControl
  /** Its context window, as far as context management learned it. */
  readonly window: WindowState
  /** Where the exec records its steps and finds them again; none in a batch. */
  readonly journal?: ExecJournal
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

/** Adds a message to the history with its message events (`replayed` when it came from the journal). */
export function append(ctx: ExecContext, message: Message, replayed = false): void {
  ctx.state.history.push(message)
  if (replayed) {
    emit(ctx, { type: 'message_start', message, ...journalFlag(message) })
    emit(ctx, { type: 'message_end', message, ...journalFlag(message) })
    return
  }
  emit(ctx, { type: 'message_start', message })
  emit(ctx, { type: 'message_end', message })
}
