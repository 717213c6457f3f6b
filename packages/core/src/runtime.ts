import { runBatch, runParallelBatch } from './batch.js'
import { NestorError, invalidOption } from './errors.js'
import type { ExecContext, LoopSettings, PriorDecision } from './exec-context.js'
import { currentFrame, type Frame } from './frame.js'
import { Listeners } from './listeners.js'
import { generateId } from './ids.js'
import { watchLiveTools } from './live-tools.js'
import { announce, end, resultOf, runLoop, type LoopStart } from './loop.js'
import { validateExecOptions, validateInput, validateRuntimeOptions } from './options.js'
import { filterTools, indexTools, registry as globalRegistry } from './registry.js'
import { ExecRun } from './run.js'
import { attachTo, RunRegistry, type AttachedRun } from './run-registry.js'
import { restoredState, stateExpiry, stateIdOf, verifyState } from './run-state.js'
import { freshState, openContext, unlinkAbort, type NewExec } from './open-context.js'
import { claimState, type PendingClaim } from './state-claims.js'
import { asInternal } from './hook-call.js'
import { normalizeTools } from './tool.js'
import { ToolCache } from './tool-cache.js'
import { OutputGate } from './output.js'
import type { SchemaInput } from './schema.js'
import { childSlot, joinJournal, treeJournal } from './durable.js'
import type { Journal } from './journal.js'
import { forkJournal, type ForkOptions, type ForkSource } from './fork.js'
import type {
  AgentEvent,
  AgentEventType,
  AssistantMessage,
  BatchCall,
  BatchLane,
  BatchOptions,
  BatchResult,
  EventOf,
  ExecInput,
  ExecOptions,
  ExecResult,
  Message,
  OutputOf,
  OutputSchema,
  ParallelBatchResult,
  ResumeDecisions,
  RunState,
  RuntimeOptions,
  Tool,
} from './types.js'
import { addUsage } from './usage.js'

type Listener<T extends AgentEventType | '*'> = (event: T extends AgentEventType ? EventOf<T> : AgentEvent) => void

/**
 * Holds a provider, a model and the rules; opens execs. Inside a tool body, `exec` opens a child
 * of the running exec (found through AsyncLocalStorage), whichever runtime it is called on.
 */
export class Runtime {
  readonly options: Readonly<RuntimeOptions>
  /** Results of `cacheable` tools, keyed by call signature (and scope), shared by every exec of this runtime; bounded by entries and TTL. */
  readonly cache = new ToolCache()
  private readonly listeners = new Listeners()
  private readonly settings: LoopSettings
  private readonly runs: RunRegistry

  constructor(options: RuntimeOptions) {
    validateRuntimeOptions(options)
    this.options = options
    this.runs = new RunRegistry(options.retention)
    this.settings = {
      toolExecution: options.toolExecution ?? 'sequential',
      maxToolConcurrency: options.maxToolConcurrency ?? Infinity,
      duplicateCalls: options.duplicateCalls ?? 'reject',
      breakerThreshold: options.breakerThreshold ?? 2,
      steering: options.steering ?? 'interrupt',
      resetToolChoice: options.resetToolChoice ?? true,
      stopAtTools: new Set(options.stopAtTools ?? []),
      hooks: options.hooks ?? {},
    }
    if (options.toolTimeoutMs !== undefined) this.settings.toolTimeoutMs = options.toolTimeoutMs
    if (options.maxRetries !== undefined) this.settings.maxRetries = options.maxRetries
    if (options.streamIdleTimeoutMs !== undefined) this.settings.streamIdleTimeoutMs = options.streamIdleTimeoutMs
    if (options.providerOptions !== undefined) this.settings.providerOptions = options.providerOptions
  }

  /** Subscribes to events of every exec of this runtime; returns the unsubscribe function. */
  on<T extends AgentEventType | '*'>(type: T, listener: Listener<T>): () => void {
    return this.listeners.add(type, listener as (event: AgentEvent) => void)
  }

  off<T extends AgentEventType | '*'>(type: T, listener: Listener<T>): void {
    this.listeners.remove(type, listener as (event: AgentEvent) => void)
  }

  /**
   * Opens a streaming tool loop. Invalid options throw `invalid_options` here, synchronously,
   * before any request. Everything after that is reported through the run, never thrown.
   */
  exec<S extends OutputSchema | undefined = undefined>(
    input: ExecInput,
    options: ExecOptions<S> = {},
  ): ExecRun<OutputOf<S>> {
    validateExecOptions(options)
    // Compiled before anything runs: a schema that cannot be an output fails here, synchronously.
    const output =
      options.output === undefined
        ? undefined
        : new OutputGate(options.output as SchemaInput, options.outputRetries ?? 2)
    const frame = currentFrame()
    const tools = this.resolveTools(options, frame)
    const choice = options.toolChoice
    if (typeof choice === 'object' && !tools.has(choice.name)) {
      throw invalidOption(
        'toolChoice',
        `the name of one of this exec's tools (${[...tools.keys()].join(', ') || 'none'})`,
        choice.name,
      )
    }
    const messages = toMessages(input)
    if (messages.length === 0 && (options.history ?? []).length === 0) {
      // A model call needs at least one message: refuse here rather than send `messages: []`.
      throw invalidOption('input', 'at least one message (in input or options.history)', input)
    }
    const history = [...(options.history ?? [])]
    const budget = options.maxIterations ?? this.options.maxIterations ?? 20
    // A replayed child takes back the execId it had, so approval paths stay the same.
    const slot = childSlot(frame)
    const execId = slot?.execId ?? generateId('exec')
    const ctx = this.open({ frame, tools, options, state: freshState(history, history.length, budget), execId })
    // A root opens the tree's journal (in memory at least: a pause at any depth resumes from the
    // root); a nested exec takes its place in its tree's.
    joinJournal(ctx, frame ? slot : { key: 'root', tree: treeJournal(options.runId ?? execId, options.journal) })
    watchLiveTools(ctx, (list) => filterTools(list, options.toolsAllow, options.toolsDeny))
    if (output) ctx.env.output = output
    if (ctx.depth > ctx.tree.maxDepth)
      return this.start(
        ctx,
        { input: messages },
        new NestorError(
          'max_depth',
          `max depth ${ctx.tree.maxDepth} exceeded: this exec would run at depth ${ctx.depth}`,
        ),
      ) as ExecRun<OutputOf<S>>
    return this.start(ctx, { input: messages }) as ExecRun<OutputOf<S>>
  }

  /** Replays a recorded run up to `source.at`, applies `source.edit` there, goes on live as `options.runId` (docs/evals.md). */
  fork(source: ForkSource, options: ForkOptions): ExecRun {
    return this.exec(source.input, { ...options, journal: forkJournal(source, options.runId, options.journal) })
  }

  /**
   * Continues a paused exec from its RunState (also in another process, on a new Runtime): runs
   * the approved calls (edited ones validated again), answers rejected ones, and goes on with the
   * same counters. Tools are matched by name from `options.tools` or this runtime's registry.
   */
  resume(
    state: RunState,
    decisions: ResumeDecisions = {},
    options: Pick<ExecOptions, 'tools' | 'signal' | 'journal'> = {},
  ): ExecRun {
    const { state: checked } = verifyState(state, this.options.stateSecret)
    const expiresAt = stateExpiry(checked)
    const journal = resumeJournal(checked, options.journal)
    const available = indexTools(
      options.tools ? normalizeTools(options.tools) : (this.options.registry ?? globalRegistry).list(),
    )
    const tools = new Map<string, Tool>()
    for (const name of checked.toolNames) {
      const tool = available.get(name)
      if (!tool)
        throw new NestorError('invalid_state', `invalid RunState: it names tool ${name}, which this runtime lacks`)
      tools.set(name, tool)
    }
    const known = new Set(checked.remaining)
    // Calls waiting below the root are found again by their journal key when the resume replays there.
    const below = new Map((checked.journal?.waiting ?? []).map((w) => [w.toolCallId, w.key]))
    const decided = new Map<string, PriorDecision>()
    const decide = (id: string, decision: PriorDecision) => {
      if (!known.has(id) && !below.has(id))
        throw new NestorError('invalid_state', `invalid decision: tool call ${id} is not waiting in this state`)
      // Approve and reject (or two edits) for one call is ambiguous: refuse rather than guess.
      if (decided.has(id))
        throw new NestorError('invalid_state', `invalid decision: tool call ${id} is decided more than once`)
      decided.set(id, decision)
      const key = below.get(id)
      if (key !== undefined) journal.decisions.set(key, decision)
    }
    for (const id of decisions.approve ?? []) decide(id, { approved: true })
    for (const { toolCallId, args } of decisions.edit ?? []) decide(toolCallId, { approved: true, args })
    for (const { toolCallId, reason } of decisions.reject ?? [])
      decide(toolCallId, { approved: false, reason: reason ?? 'rejected' })

    const execOptions: ExecOptions = { model: checked.model }
    if (checked.system !== undefined) execOptions.system = checked.system
    if (checked.parallelToolCalls !== undefined) execOptions.parallelToolCalls = checked.parallelToolCalls
    if (options.signal) execOptions.signal = options.signal
    // verifyState returned a deep copy: the exec may grow it, the caller's state stays as given.
    const resumed = restoredState(checked)
    for (const [id, decision] of decided) if (known.has(id)) resumed.decisions.set(id, decision)
    const ctx = this.open({
      frame: currentFrame(),
      tools,
      options: execOptions,
      state: resumed,
      execId: checked.execId,
    })
    joinJournal(ctx, { key: 'root', tree: journal })
    if (ctx.depth === 0) {
      ctx.tree.iterations = checked.tree.iterations
      ctx.tree.tokens = checked.tree.tokens
      ctx.tree.startedAt = Date.now() - checked.tree.elapsedMs
    }
    // verifyState checked that the history ends its own part with the paused assistant message.
    const paused = resumed.history.findLast((m): m is AssistantMessage => m.role === 'assistant') as AssistantMessage
    // Claimed last, once everything else checked out: a refused resume leaves the state unspent.
    const claim = claimState(this.options.claimState, stateIdOf(checked), expiresAt)
    return this.start(ctx, { resume: { message: paused, remaining: checked.remaining } }, undefined, claim)
  }

  /**
   * Reads a root exec's stream after a position (1 = its first event; nested execs' events count
   * too), live or finished, while this runtime keeps it (`retention`). Undefined for an unknown or
   * dropped exec id; `events_expired` when the events after `after` left the replay window.
   * `after: 'latest'` reads only what comes next (and gives the controls of a live run).
   */
  attach(execId: string, options: { after?: number | 'latest' } = {}): AttachedRun | undefined {
    return attachTo(this.runs, execId, options.after ?? 0)
  }

  /**
   * Runs tool calls in order with every gate (schema, timeout, retry, cache, receipts); no model.
   * `onEvent` sees this batch's events and those of the execs its calls open, as they happen.
   */
  runBatch(calls: BatchCall[], options: BatchOptions & { stopOnError?: boolean } = {}): Promise<BatchResult> {
    const ctx = this.batchContext(options)
    return settleBatch(ctx, () => runBatch(ctx, calls, options))
  }

  /** Lanes run concurrently up to `maxConcurrency`, calls inside a lane one after the other. */
  runParallelBatch(
    lanes: BatchLane[],
    options: BatchOptions & { maxConcurrency: number },
  ): Promise<ParallelBatchResult> {
    const ctx = this.batchContext(options ?? {})
    return settleBatch(ctx, () => runParallelBatch(ctx, lanes, options))
  }

  /** Batches share the loop's call pipeline through an exec context of their own (no model). */
  private batchContext({ tools, signal, onEvent }: BatchOptions): ExecContext {
    const resolved = indexTools(tools ? normalizeTools(tools) : (this.options.registry ?? globalRegistry).list())
    const budget = this.options.maxIterations ?? 20
    const ctx = this.open({
      frame: undefined,
      tools: resolved,
      options: signal ? { signal } : {},
      state: freshState([], 0, budget),
      execId: generateId('batch'),
    })
    ctx.env.settings = { ...ctx.env.settings, duplicateCalls: 'allow', stopAtTools: new Set() }
    if (onEvent) ctx.control.log.onPush = onEvent
    return ctx
  }

  private resolveTools(options: ExecOptions, frame: Frame | undefined): Map<string, Tool> {
    let tools: Tool[]
    if (options.tools !== undefined) tools = normalizeTools(options.tools)
    else if (options.toolset === 'none') tools = []
    else if (frame && options.toolset === undefined) {
      // A child inherits what its parent resolved, minus the tool whose body is running.
      tools = [...frame.ctx.env.tools.values()].filter((t) => t.spec.name !== frame.runningTool)
    } else tools = (this.options.registry ?? globalRegistry).list()
    return indexTools(filterTools(tools, options.toolsAllow, options.toolsDeny))
  }

  private open(what: NewExec): ExecContext {
    return openContext(
      { runtime: this, listeners: this.listeners, settings: this.settings, replayWindow: this.runs.replayWindow },
      what,
    )
  }

  private start(ctx: ExecContext, start: LoopStart, refuse?: NestorError, claim?: PendingClaim): ExecRun {
    // Opened before the loop publishes agent_start; only root execs (children are in their stream).
    // A root exec past retention.maxLiveRuns ends at once, refused, and is not kept.
    const full = ctx.parent ? undefined : this.runs.refusal()
    refuse ??= full
    const retained = ctx.parent || full ? undefined : this.runs.open(ctx.execId, ctx.control.log)
    // An asynchronous claim (a shared store) is settled before anything runs; a lost one ends the
    // exec without a model or tool call.
    const body = claim
      ? claim.then((lost) => (lost ? refused(ctx, start, lost) : runLoop(ctx, start)))
      : refuse
        ? refused(ctx, start, refuse)
        : runLoop(ctx, start)
    const result = body
      .catch((error: unknown) => fallbackResult(ctx, error))
      .then((result) => {
        if (ctx.parent) {
          addUsage(ctx.parent.state.totalUsage, result.totalUsage)
          if (result.status === 'paused' && ctx.parentToolCallId !== undefined)
            ctx.parent.control.pausedCalls.add(ctx.parentToolCallId)
        }
        return result
      })
      .finally(() => {
        ctx.control.log.close()
        unlinkAbort(ctx.control.controller)
      })
    const run = new ExecRun(ctx, ctx.control.log, result, ctx.execId)
    if (retained) this.runs.track(retained, run, result)
    return run
  }
}

/** A bad plan throws here, synchronously; a plan that runs settles as a promise. */
function settleBatch<T>(ctx: ExecContext, run: () => Promise<T>): Promise<T> {
  let running: Promise<T>
  try {
    running = run()
  } catch (error) {
    unlinkAbort(ctx.control.controller)
    throw error
  }
  return running.finally(() => unlinkAbort(ctx.control.controller))
}

function toMessages(input: ExecInput): Message[] {
  validateInput(input)
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  if (Array.isArray(input)) return input
  if (input && typeof input === 'object' && 'role' in input) return [input]
  throw invalidOption('input', 'a string, a Message or a Message[]', input)
}

/** A child past maxDepth: agent_start and agent_end, a failed result, no model call. */
async function refused(ctx: ExecContext, start: LoopStart, error: NestorError): Promise<ExecResult> {
  announce(ctx, start)
  return end(ctx, { status: 'failed', error })
}

/** Only reached if the loop itself broke: the result as it stands, without further events. */
const fallbackResult = (ctx: ExecContext, error: unknown): ExecResult =>
  resultOf(ctx, { status: 'failed', error: asInternal(error) })

/** The module-level exec(): runs on the runtime of the current frame; `no_runtime` outside one. */
export function exec<S extends OutputSchema | undefined = undefined>(
  input: ExecInput,
  options: ExecOptions<S> = {},
): ExecRun<OutputOf<S>> {
  const frame = currentFrame()
  if (!frame)
    throw new NestorError(
      'no_runtime',
      'exec() was called outside any exec: call runtime.exec() first, or call exec() from inside a tool body',
    )
  return frame.ctx.env.runtime.exec(input, options)
}

/**
 * The tree journal a resume continues: the state's entries, or (for an external journal, which the
 * state names by id) the same journal given again.
 */
function resumeJournal(state: RunState, given: Journal | undefined) {
  const field = state.journal
  if (!field) return treeJournal(state.execId, given)
  if (field.id !== undefined && given?.id !== field.id)
    throw new NestorError(
      'invalid_state',
      `invalid RunState: its steps are in journal ${field.id}; pass that journal as resume(state, decisions, { journal })`,
    )
  return treeJournal(field.runId, given, field.entries)
}
