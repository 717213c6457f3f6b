// Every public type of @nestor/core, each with the contract a caller may rely on.
// Names follow docs/design.md: they are public API.

export type * from './message-types.js'
import type { ToolResultContent, ToolCall, AssistantMessage, Message } from './message-types.js'
import type { TrippedGuardrail } from './guardrail-types.js'
export * from './receipt-types.js'

// ─── JSON Schema and tools ───────────────────────────────────────────────────

/** A JSON Schema object (draft 2020-12 or 07). Kept loose on purpose: schemas are data. */
export type JSONSchema = { [key: string]: unknown }

/** What the model sees of a tool. */
export type ToolSpec = { name: string; description: string; parameters: JSONSchema }

/**
 * What a tool body is given. Its `exec(input, options)` (a nested exec opened as this call's child,
 * with no AsyncLocalStorage) is declared beside `ExecRun` in exec/run.ts, which merges it into this
 * interface: the exec types sit above the tool types, so declaring it here would tie them in a circle.
 */
export interface ToolContext {
  /** Aborted when the exec is aborted or the tool's timeout fires. */
  signal: AbortSignal
  toolCallId: string
  /**
   * The same for every run of this call (retries, a journal replay, a recovery in another process)
   * and different for every other call: pass it to outside APIs (`Idempotency-Key`). docs/durability.md
   */
  idempotencyKey: string
  execId: string
  depth: number
  /** Emits a `tool_update` event with `partial`. */
  update(partial: unknown): void
  /** Emits a `tool_log` event: a log line for the app's consumers (MCP `notifications/message` when served). */
  log(level: LogLevel, message: string, data?: unknown): void
  /**
   * Asks a person a typed question and waits for the answer (docs/asking.md). The nearest `ask`
   * handler (the exec's, an ancestor's, the runtime's) answers in process; without one the whole
   * tree pauses (`pending.inputs`), and after `runtime.resume(state, { answers })` the body runs
   * again from its start and this returns the answer at once. The answer is checked against
   * `schema` (zod v4 or v3, or a JSON Schema). Rejects `input_unavailable` where no one can answer.
   */
  ask<S extends OutputSchema>(question: string, schema: S, options?: AskOptions): Promise<OutputOf<S>>
}

/** How `ctx.ask` asks. */
export type AskOptions = {
  /**
   * Names the question within its call, so an answer finds it again when the body runs again.
   * Default: its place among the call's questions (the first, the second…), which holds as long as
   * the body asks in the same order each time it runs.
   */
  key?: string
  /** Ends the wait for an in-process handler's answer (the call's own signal always does). */
  signal?: AbortSignal
}

/** A question waiting for its answer, as a paused result lists it (`pending.inputs`) and a UI shows it. */
export type PendingInput = {
  /** What `runtime.resume(state, { answers: { [id]: value } })` names it by. */
  id: string
  toolCallId: string
  /** execIds from the root exec down to the one asking. */
  path: string[]
  question: string
  /** What the answer must match, as JSON Schema. */
  schema: JSONSchema
}

/** What an `ask` handler is given: the question, where it was asked, and a signal that ends the wait. */
export type InputRequest = PendingInput & {
  execId: string
  depth: number
  signal?: AbortSignal
}

/**
 * Answers questions in process (`RuntimeOptions.ask`, `ExecOptions.ask`): returns (or resolves to)
 * the answer, which is checked against the question's schema. A throw rejects the asking `ctx.ask`.
 */
export type AskHandler = (request: InputRequest) => unknown

/** Log severities, as syslog and MCP name them (least to most severe). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'

/** `{ content, details? }`: content goes to the model, details only to events and UIs. */
export type ToolOutput = { content: ToolResultContent[]; details?: unknown }

export type ApprovalPredicate<A> = (args: A, ctx: ToolContext) => boolean | Promise<boolean>

/** Any value JSON can hold: what a stored state may carry (an approval preview). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/**
 * What the approver of a call should see (a diff, a plan), computed from the arguments before the
 * call waits for a decision and again after it is approved. Its value must be JSON; a throw fails the call.
 */
export type PreparePreview<A> = (args: A, ctx: ToolContext) => unknown

/** A validation outcome: parsed arguments, or human-readable issues. */
export type Validation<T> = { ok: true; value: T } | { ok: false; issues: string[] }

/**
 * A tool in its normalised form: what the registry holds and the loop runs.
 * `validate` checks arguments against `spec.parameters` (zod or a JSON Schema validator).
 */
export type Tool<A = Record<string, unknown>, R = unknown> = {
  spec: ToolSpec
  execute(args: A, ctx: ToolContext): R | Promise<R>
  validate?(args: unknown): Validation<A>
  /** Gate on results: a result failing it becomes an error result. */
  validateOutput?(result: unknown): Validation<unknown>
  needsApproval?: boolean | ApprovalPredicate<A>
  /** The preview of a call that needs approval: `ApprovalRequest.preview` (see PreparePreview). */
  prepare?: PreparePreview<A>
  timeoutMs?: number
  retries?: number
  /** Reuse results for identical calls: `true`, or bounds and a scope (see CacheOptions). */
  cacheable?: boolean | CacheOptions<A>
  /** At most this many bodies of this tool run at once across every exec and batch of a runtime. */
  concurrency?: number
  /** Reject argument keys `spec.parameters` does not declare; overrides the runtime's option. */
  strictArguments?: boolean
  /** Its result's status decides whether the loop (or a batch lane) goes on: see ToolControl. */
  control?: ToolControl
}

/**
 * A tool's control envelope (docs/governance.md "Control envelopes"): the status at `statusField`
 * of each result decides whether the exec or batch lane continues or stops. Paths are dot-separated
 * keys into the result (`'status'`, `'outcome.state'`). Checked at definition.
 */
export type ToolControl = {
  statusField: string
  continueStatuses: readonly string[]
  stopStatuses: readonly string[]
  /** Receipt name → dot path in the result: the fields copied onto `receipt.control.diagnosis`. */
  diagnosis?: Readonly<Record<string, string>>
}

/**
 * How a `cacheable` tool's results are reused. Entries are keyed by the call's signature (tool
 * name + canonical arguments) within the tool's `scope`, and live `ttlMs`.
 */
export type CacheOptions<A = Record<string, unknown>> = {
  /** How long a result stays fresh. Default: the runtime cache's `ttlMs` (10 minutes). */
  ttlMs?: number
  /**
   * Partitions the cache: only calls with the same scope share results (a user id, a tenant, the
   * root exec id for "within one run"). The runtime cache is shared by every caller otherwise.
   */
  scope?(args: A, info: CacheScopeInfo): string
}
export type CacheScopeInfo = { execId: string; rootExecId: string; depth: number }

/** Anything with `.spec` and `.execute`: what `exec({ tools })` accepts besides agents and methods. */
export type ToolLike = { spec: ToolSpec; execute(args: never, ctx: ToolContext): unknown }

/**
 * Something that expands into tools: an Agent instance or a decorated method reference.
 * Packages outside core (agents) mark such values with this symbol, keeping core free of them.
 */
export const toolSource: unique symbol = Symbol.for('nestor.toolSource')
export type ToolSource = { [toolSource](): Tool[] }

/**
 * A decorated method reference (`this.search`, `agent.search`): typed as the plain method it is,
 * since a decorator cannot change a method's type. At run time it must carry `toolSource`;
 * any other function is rejected by `normalizeTools` with `invalid_options`.
 */
export type MethodReference = (...args: never[]) => unknown

export type ToolInput = ToolLike | ToolSource | Tool | MethodReference

export type ToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; name: string }

// ─── Providers ───────────────────────────────────────────────────────────────

/** One model call, provider-neutral. Providers map it onto their own protocol. */
export type ModelRequest = {
  model: string
  system?: string
  messages: Message[]
  tools: ToolSpec[]
  toolChoice?: ToolChoice
  parallelToolCalls?: boolean
  /** Provider-specific knobs (maxTokens, temperature, thinking budget…), passed through. */
  options?: Record<string, unknown>
  /** The runtime's retry budget for this call (retryable failures before any content). Default 2. */
  maxRetries?: number
  /** A stream silent this long fails as retryable. */
  streamIdleTimeoutMs?: number
  /**
   * The final answer must be JSON matching this schema (typed output). Adapters use their API's
   * native structured output where they can, else they state the schema in the instructions.
   */
  output?: OutputSpec
  /**
   * Ask the model to think (true) or not (false) before it answers; unset leaves the provider's
   * default. Adapters that can send it do, gated on the model's thinking capability (a model that
   * cannot think fails `invalid_options` naming `think`); others ignore it (docs/providers.md).
   */
  think?: boolean
}

/** What `exec({ output })` accepts: a zod v4 or v3 schema, or a JSON Schema object. */
export type OutputSchema = object
/** The type of `result.output` for a schema: zod's output type; `unknown` for JSON Schema. */
export type OutputOf<S> = [S] extends [undefined]
  ? undefined
  : S extends { _zod: { output: infer O } }
    ? O
    : S extends { _output: infer O }
      ? O
      : unknown

/**
 * Instructions an adapter wrote into the system prompt on its own, so a reader of the events can
 * see what the model was told beyond the exec's own system prompt. `text-tool-protocol`: the
 * tool descriptions and call format given to a model without native tool calling.
 */
export type InjectedPrompt = { kind: 'text-tool-protocol'; text: string }

/** The schema a typed-output exec asks for, in JSON Schema, with a name for APIs that want one. */
export type OutputSpec = { name: string; schema: JSONSchema }

/**
 * Stream events of one model call. A stream ends with exactly one `done` or `error` carrying the
 * final AssistantMessage (partial content kept on error/abort). A provider never throws mid-stream.
 */
export type ModelEvent =
  /** `injectedPrompt`: instructions the adapter added to the request itself (see `InjectedPrompt`). */
  | { type: 'start'; message: AssistantMessage; injectedPrompt?: InjectedPrompt }
  | { type: 'text_delta'; delta: string }
  | { type: 'thinking_delta'; delta: string }
  | { type: 'toolcall_start'; id: string; name: string }
  | { type: 'toolcall_delta'; id: string; delta: string }
  | { type: 'toolcall_end'; toolCall: ToolCall }
  /** A retryable failure before any content: the provider waits `delayMs` and tries again. */
  | { type: 'retry'; attempt: number; delayMs: number; error: NestorErrorLike }
  | { type: 'done'; message: AssistantMessage }
  | { type: 'error'; message: AssistantMessage; error: NestorErrorLike }

/** The shape of a NestorError as plain data (what crosses the provider boundary). */
export type NestorErrorLike = Error & {
  code: ErrorCode
  status?: number
  provider?: string
  retryable?: boolean
  issues?: readonly string[]
  text?: string
  guardrail?: TrippedGuardrail
}

export type Capabilities = { tools: boolean; thinking: boolean; contextWindow?: number }

/**
 * A model's prices in US dollars per million tokens. `cacheRead`/`cacheWrite` default to `input`.
 * `tiers`: a prompt (input plus cache tokens) above `above` tokens is billed wholly at that tier's
 * rates (long-context pricing); the highest tier passed wins.
 */
export type ModelPrices = {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
  tiers?: readonly ModelPriceTier[]
}
export type ModelPriceTier = { above: number; input: number; output: number; cacheRead?: number; cacheWrite?: number }

/** What the catalogue knows of a model (`modelInfo` in @nestor/providers): docs/cost.md. */
export type ModelInfo = {
  contextWindow?: number
  /** The most a reply may hold: the model's cap, or the cap the adapter sends when a request gives none. */
  maxOutputTokens?: number
  prices?: ModelPrices
  capabilities: Capabilities
}

/**
 * Marks a provider that makes no network call (`scripted()`, a strict `replay()`). The
 * conformance harness treats every unmarked provider as live and refuses it unless
 * NESTOR_LIVE_TESTS=1.
 */
export const offlineProvider: unique symbol = Symbol.for('nestor.offlineProvider')

/** True for providers marked offline. */
export const isOfflineProvider = (provider: Provider): boolean =>
  (provider as { [offlineProvider]?: unknown })[offlineProvider] === true

export interface Provider {
  name: string
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelEvent>
  /**
   * Optional fast path with the same events as `stream`, delivered by calling `sink` (no promise
   * per event). The loop prefers it. Resolves after the terminal event; never rejects.
   */
  streamTo?(request: ModelRequest, signal: AbortSignal | undefined, sink: (event: ModelEvent) => void): Promise<void>
  capabilities?(model: string): Promise<Capabilities>
  /**
   * The catalogue entry of a model this provider serves: its prices and limits. `provider` is the
   * name a message carries when it is not this provider's own (a fallback's entry).
   */
  modelInfo?(model: string, provider?: string): Promise<ModelInfo | undefined>
  /** Strings the redactor must hide (the API key). Never logged or emitted. */
  secrets?(): string[]
}

// ─── Errors ──────────────────────────────────────────────────────────────────

export type ErrorCode =
  | 'invalid_options'
  | 'no_runtime'
  | 'iteration_limit'
  | 'circuit_breaker'
  | 'max_depth'
  | 'budget_exceeded'
  | 'provider_error'
  | 'aborted'
  | 'invalid_state'
  | 'replay_miss'
  /** A hook (prepareTurn, beforeToolCall, afterToolCall, approve, claimState) threw. */
  | 'hook_error'
  /** A bug in Nestor itself: please report it. */
  | 'internal'
  /** `runtime.attach(execId, { after })` asked for events the runtime no longer keeps (see `retention`). */
  | 'events_expired'
  /** An exec with `output` got no answer its schema accepts within `outputRetries` corrections. */
  | 'invalid_output'
  /** The model refused to give the typed answer (`AssistantMessage.refusal` holds its explanation). */
  | 'refusal'
  /** A journal does not fit this run: a recorded step the code contradicts, another run's journal (docs/durability.md). */
  | 'journal_mismatch'
  /** A call to a `suppliedResults` tool that has no supplied result: the exec stops (docs/governance.md). */
  | 'missing_result'
  /** `ctx.ask` where no one can answer: no handler, and an exec that cannot pause (a batch, a served call). */
  | 'input_unavailable'
  /** The request does not fit the model's context window even after compacting (docs/context.md). */
  | 'context_overflow'
  /** A guardrail tripped (docs/guardrails.md): `error.guardrail` names it and says why. */
  | 'guardrail_tripped'
  /** Another exec is writing this session (`session: { wait: true }` waits for it): docs/sessions.md. */
  | 'session_busy'
  /** A session write would pass the store's `maxMessages` or `maxBytes`. */
  | 'session_full'
  /** No such session for this owner (another owner's answers the same). */
  | 'not_found'
  /** A session store failed an operation (it went away mid-write); the write left nothing partial. */
  | 'store_error'

// ─── Approvals and resumable state ───────────────────────────────────────────

export type ApprovalRequest = {
  toolCallId: string
  toolName: string
  args: Record<string, unknown>
  execId: string
  depth: number
  /** execIds from the root exec down to the one asking. */
  path: string[]
  /** What the tool's `prepare` returned for these arguments (absent without `prepare`). */
  preview?: JsonValue
}
export type ApprovalDecision =
  { approved: true; args?: Record<string, unknown> } | { approved: false; reason?: string } | boolean

export type ResumeDecisions = {
  approve?: string[]
  reject?: { toolCallId: string; reason?: string }[]
  edit?: { toolCallId: string; args: Record<string, unknown> }[]
  /** Answers to the state's `pending.inputs`, by input id; each checked against its question's schema. */
  answers?: Record<string, unknown>
}
