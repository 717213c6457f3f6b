// The public types of an exec: its input, options, result and hooks.

import type {
  ApprovalDecision,
  ApprovalRequest,
  AskHandler,
  ControlDecision,
  HistoryMessage,
  Message,
  ModelPrices,
  NestorErrorLike,
  OutputOf,
  OutputSchema,
  PendingInput,
  Provider,
  ToolCall,
  ToolChoice,
  ToolInput,
  ToolResultMessage,
  ToolSpec,
  Tool,
} from './types.js'
import type { RunState } from './run-state-schema.js'
import type { Journal } from './journal.js'
import type { SessionOptions, SessionStore } from './session-types.js'
import type { ExecStats } from './exec-stats-types.js'
import type { HandoffTarget } from './handoff-types.js'
import type { GuardrailOptions } from './guardrail-types.js'

export type ExecInput = string | Message | Message[]

export type ExecStatus = 'completed' | 'paused' | 'failed' | 'aborted'

/**
 * The fields a result shares with the stored RunState (one definition, so they cannot drift):
 * `history` is the whole context after this exec, `totalUsage` this exec plus its nested children.
 */
type StateFields = Pick<RunState, 'execId' | 'history' | 'iterationsUsed' | 'usage' | 'totalUsage' | 'receipts'>

export type ExecResult<O = unknown, C extends string = string> = StateFields & {
  status: ExecStatus
  /** Final assistant text ('' if none). */
  text: string
  /** Messages this exec added. */
  messages: RunState['history']
  /** Infinity when unbounded (a stored RunState writes it as null). */
  iterationBudget: number
  error?: NestorErrorLike
  /** What a paused exec waits for: decisions on `approvals`, answers to `inputs` (docs/asking.md). */
  pending?: { state: RunState; approvals: RunState['pending']; inputs: PendingInput[] }
  /** The validated final answer of an exec with `output`; set only when `status` is 'completed'. */
  output?: O
  /** Set when a tool's control envelope ended the exec (status 'completed', `text` is that call's result). */
  stopped?: ExecStop
  /** What `receipts` add up to: per-tool calls and results, errors by kind, the longest same-tool streak. */
  stats: ExecStats
  /** The agent that gave the answer: the last handoff's target, else the exec's `agent` option. */
  agent?: string
  /** The name an exec with `choices` decided on (its `output.choice`); set only when `status` is 'completed'. */
  choice?: C
}

/** Which call's control envelope stopped an exec, and what it decided (docs/governance.md). */
export type ExecStop = { reason: 'control_stop'; toolName: string; toolCallId: string; control: ControlDecision }

/** `exec({ choices })`: the names to decide among, or a record of name → what choosing it means. */
export type Choices<C extends string = string> = readonly C[] | Readonly<Record<C, string>>

/** `result.output` of an exec with `choices`: the decision and the model's reason for it. */
export type ChoiceOutput<C extends string = string> = { reason: string; choice: C }

/** The type of `result.output`: from `choices` when there are any (`C` not `never`), else from the schema. */
export type ExecOutputOf<S, C extends string> = [C] extends [never] ? OutputOf<S> : ChoiceOutput<C>
/** The type of `result.choice`: the names of `choices`; plain `string` (never set) for an exec without them. */
export type ChoiceOf<C extends string> = [C] extends [never] ? string : C

export type PrepareTurnInfo = {
  iteration: number
  messages: Message[]
  tools: ToolSpec[]
  toolChoice: ToolChoice | undefined
}
export type PrepareTurnChanges = {
  model?: string
  /** Names of the tools visible this round (a subset of the exec's tools). */
  tools?: string[]
  toolChoice?: ToolChoice
  messages?: Message[]
}
export type ToolCallHookContext = { execId: string; depth: number; iteration: number }
export type BeforeToolCallOutcome = void | undefined | { block: true; reason: string }
export type LoopHooks = {
  prepareTurn?(info: PrepareTurnInfo): PrepareTurnChanges | void | Promise<PrepareTurnChanges | void>
  beforeToolCall?(call: ToolCall, ctx: ToolCallHookContext): BeforeToolCallOutcome | Promise<BeforeToolCallOutcome>
  afterToolCall?(
    call: ToolCall,
    result: ToolResultMessage,
  ): ToolResultMessage | void | Promise<ToolResultMessage | void>
}

/** What a custom compaction strategy is told (docs/context.md). */
export type ContextInfo = {
  /** The model's window, and the room kept for its reply. */
  maxTokens: number
  reserveTokens: number
  /** The estimated tokens of the request as it stands, and what compaction should bring it under. */
  tokens: number
  targetTokens: number
  iteration: number
  reason: 'limit' | 'overflow'
}
/**
 * How a history over the window is made to fit: the oldest turns summarized by the model, dropped,
 * or a function that returns the new history (it must keep every tool call with its result).
 */
export type ContextStrategy =
  'summarize' | 'truncate' | ((messages: Message[], info: ContextInfo) => Message[] | Promise<Message[]>)
/** Keeps a long run inside the model's window: see docs/context.md. */
export type ContextOptions = {
  /** Default: the model's context window, as the adapter knows it. */
  maxTokens?: number
  /** Room for the reply. Default: a sixth of `maxTokens`, at least 1024 and at most 32768. */
  reserveTokens?: number
  /** Default 'summarize'. */
  strategy?: ContextStrategy
}

export type QueueMode = 'all' | 'one'
export type SteeringMode = 'interrupt' | 'after-turn'

export type RuntimeOptions = {
  provider: Provider
  model: string
  system?: string
  registry?: ToolList
  /** Default 20; an integer in 1..10000, or Infinity. */
  maxIterations?: number
  /** Default 8. */
  maxDepth?: number
  maxTotalIterations?: number
  /** Tool calls one exec may run (nested execs inherit it); the next one ends it `budget_exceeded`. */
  maxToolCalls?: number
  /** Tool calls the whole exec tree may run, shared like `maxTotalIterations`. */
  maxTotalToolCalls?: number
  toolExecution?: 'sequential' | 'parallel'
  duplicateCalls?: 'reject' | 'allow'
  /** Default 2; Infinity turns the breaker off. */
  breakerThreshold?: number
  /** Reject argument keys a tool's schema does not declare (a tool's own flag wins). Default false. */
  strictArguments?: boolean
  toolTimeoutMs?: number
  maxRetries?: number
  secrets?: string[]
  queueMode?: QueueMode
  steering?: SteeringMode
  maxToolConcurrency?: number
  maxTotalTokens?: number
  /**
   * US dollars one exec may spend on model calls (an exec's own option wins). Checked before each
   * call against spent plus the call's estimate: docs/cost.md.
   */
  maxCostUsd?: number
  /** US dollars the whole exec tree may spend, shared like `maxTotalTokens`. */
  maxTotalCostUsd?: number
  /**
   * Prices that win over the catalogue's, or add models it lacks: keyed `provider:model` (the
   * provider's name as its messages carry it), in dollars per million tokens.
   */
  prices?: Record<string, ModelPrices>
  deadlineMs?: number
  streamIdleTimeoutMs?: number
  /** Default true. */
  resetToolChoice?: boolean
  stopAtTools?: string[]
  approve?: (request: ApprovalRequest) => Promise<ApprovalDecision> | ApprovalDecision
  /** Answers `ctx.ask` in process (an exec's own `ask` wins); without one the tree pauses: docs/asking.md. */
  ask?: AskHandler
  hooks?: LoopHooks
  /** HMAC-SHA256 key for RunState signatures (a non-empty string). */
  stateSecret?: string
  /**
   * Claims a paused state for one resume: return true if this caller is the first, false if the
   * state was already resumed (then `resume` fails `invalid_state`). Default: an in-memory set,
   * which holds within one process; pass a shared store (a unique insert) to make it hold across
   * processes. `expiresAt` (ms since the epoch, or Infinity) is when the state stops being
   * resumable, so a store may drop the claim then. See docs/governance.md.
   */
  claimState?: (stateId: string, claim: { expiresAt: number }) => boolean | Promise<boolean>
  /**
   * How long a state this runtime pauses with can be resumed (it carries `expiresAt`); later, a
   * resume fails `invalid_state`. Default 7 days; Infinity: never (and the default claim store
   * then keeps its claim forever).
   */
  stateMaxAgeMs?: number
  /** Provider-specific request knobs for every call (maxTokens…). */
  providerOptions?: Record<string, unknown>
  /** Context management for every exec of this runtime (an exec's own `context` wins). */
  context?: ContextOptions
  /** Thinking on (true) or off (false) for every call, where the adapter can say it: see `ExecOptions.think`. */
  think?: boolean
  /** What `runtime.attach` can still read: see docs/web.md "Retention". */
  retention?: RetentionOptions
  /** Where `exec(input, { session })` keeps conversations: see docs/sessions.md. */
  sessions?: SessionStore
  /** Checks on every exec's input, output and tool calls (nested execs too): docs/guardrails.md. */
  guardrails?: GuardrailOptions
}

export type ExecOptions<S extends OutputSchema | undefined = OutputSchema | undefined, C extends string = string> = {
  tools?: ToolInput[]
  toolset?: 'all' | 'none'
  toolsAllow?: string[]
  toolsDeny?: string[]
  /** A call to one of these ends this exec (in place of the runtime's list; not inherited). */
  stopAtTools?: string[]
  toolChoice?: ToolChoice
  parallelToolCalls?: boolean
  maxIterations?: number
  /** Tool calls this exec may run (default: the parent's, else the runtime's). */
  maxToolCalls?: number
  /** US dollars this exec may spend on model calls (default: the runtime's): docs/cost.md. */
  maxCostUsd?: number
  model?: string
  provider?: Provider
  system?: string
  /** The conversation before `input` (a result's `history`, or messages written by hand). */
  history?: HistoryMessage[]
  signal?: AbortSignal
  /**
   * Answers `ctx.ask` of this exec and the execs nested in it (wins over the runtime's), so a server
   * can answer each served call its own way: docs/asking.md.
   */
  ask?: AskHandler
  providerOptions?: Record<string, unknown>
  /**
   * Thinking on (true) or off (false) for this exec's calls (wins over the runtime's). Sent by the
   * adapters that can say it; asking a model that cannot think fails `invalid_options` naming
   * `think`. See docs/providers.md "Thinking: the think option".
   */
  think?: boolean
  /** A zod (v4 or v3) or JSON Schema for the final answer: `result.output` is the parsed, validated value. */
  output?: S
  /**
   * A forced decision among named options, as typed output (not with `output`): `result.choice` is
   * the name, `result.output` `{ reason, choice }`. See docs/output.md "Choices".
   */
  choices?: Choices<C>
  /** How often an answer that fails `output` (or `choices`) goes back to the model with the issues. Default 2. */
  outputRetries?: number
  /**
   * Records every finished step of this exec tree and replays recorded ones instead of running
   * them again (see docs/durability.md). Read by root execs; a nested exec uses its tree's.
   */
  journal?: Journal
  /** The run's id in the journal (default: the root's execId). The same id again replays the run. */
  runId?: string
  /**
   * An owner of the runtime's declared registry (`loadRegistry`): its defaults apply to this exec
   * (`allowedTools` as `toolsAllow`, `toolTimeoutMs`, `maxToolCalls`); options given here win.
   */
  owner?: string
  /** Keeps the run inside the model's window (inherited by nested execs): see docs/context.md. */
  context?: ContextOptions
  /**
   * The stored conversation this exec continues and appends to, one write per turn (the runtime's
   * `sessions` store; not with `history`; root execs only): see docs/sessions.md. Undefined:
   * none (so `chatRoutes`' optional `session` passes straight through).
   */
  session?: SessionOptions | undefined
  /**
   * Agents this exec may hand the conversation to: the model sees `transfer_to_<name>` for each,
   * and the target answers in place of the exec's own instructions (docs/handoffs.md).
   */
  handoffs?: HandoffTarget[]
  /** How many handoffs the exec may take (default 10); one more fails it `budget_exceeded`. */
  maxHandoffs?: number
  /** The name of the agent this exec answers as (`Agent.exec` sets it): `result.agent`, `handoff.from`. */
  agent?: string
  /** Guardrails added to the runtime's for this exec and its nested execs: docs/guardrails.md. */
  guardrails?: GuardrailOptions
}

/** What `runtime.resume` takes beside the state and decisions: what the paused exec was given again. */
export type ResumeOptions = Pick<
  ExecOptions,
  'tools' | 'signal' | 'journal' | 'session' | 'guardrails' | 'ask' | 'handoffs' | 'maxHandoffs'
>

/**
 * Where a runtime finds its tools when an exec names none: a `ToolRegistry`, or anything that lists
 * tools. A declared registry (`loadRegistry`) also has the owners `exec({ owner })` names.
 */
export type ToolList = { list(): Tool[]; readonly owners?: ReadonlyMap<string, OwnerDefaults> }

/** What an exec naming an owner runs with unless its own options say otherwise. */
export type OwnerDefaults = {
  /** Tool names (or globs) the owner's execs may use: its own tools unless the manifest says. */
  readonly allowedTools: readonly string[]
  /** Completed tool calls per exec (`maxToolCalls`). */
  readonly maxToolCalls?: number
  /** The timeout of each tool call of the owner's execs (a tool's own `timeoutMs` wins). */
  readonly toolTimeoutMs?: number
}

/**
 * How long a runtime keeps root runs readable by `runtime.attach`, and how much of each. Memory is
 * bounded whatever the readers do: at most `replayWindow` events per run, at most `maxLiveRuns`
 * runs at once, and finished runs are dropped after `keepFinishedMs` or when more than
 * `maxFinishedRuns` have finished since.
 */
export type RetentionOptions = {
  /** The latest events of each run kept for replay. Default 5000; 0 turns retention off. */
  replayWindow?: number
  /** How long a finished run stays attachable. Default 5 minutes. */
  keepFinishedMs?: number
  /** How many finished runs stay attachable (the ones that finished first go first). Default 50. */
  maxFinishedRuns?: number
  /**
   * How many root runs may be live at once; one more ends at once, failed with `budget_exceeded`
   * (and is not kept), so a flood of requests cannot grow memory without bound. Default 1000.
   */
  maxLiveRuns?: number
}

/** What a tool body may know about the exec it runs in (`currentExec()`). */
export type ExecFrameInfo = { execId: string; depth: number; path: readonly string[]; toolName: string }
