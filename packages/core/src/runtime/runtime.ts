import { generateId } from '../base/ids.js'
import { runBatch, runParallelBatch } from '../calls/batch.js'
import type { BatchCall, BatchLane, BatchOptions, BatchResult, ParallelBatchResult } from '../contract/batch-types.js'
import { NestorError, invalidOption } from '../contract/errors.js'
import type { AgentEvent, AgentEventType, EventOf } from '../contract/event-types.js'
import type {
  ChoiceOf,
  ExecInput,
  ExecOptions,
  ExecOutputOf,
  ResumeOptions,
  RuntimeOptions,
} from '../contract/exec-types.js'
import type { RunState } from '../contract/run-state-schema.js'
import type { Journal } from '../contract/journal.js'
import type { Message, OutputSchema, ResumeDecisions, Tool } from '../contract/types.js'
import { addUsage } from '../contract/usage.js'
import { openNested, type ExecContext, type LoopSettings, type Nesting } from '../exec/context.js'
import { currentFrame } from '../exec/frame.js'
import { runtimeSettings } from '../exec/settings.js'
import { Listeners } from '../exec/listeners.js'
import { openContext, type NewExec } from '../exec/open.js'
import { checkGuardrailOptions, execGuardrails } from '../guardrails/define.js'
import { ExecRun } from '../exec/run.js'
import { ToolSet } from '../exec/tool-set.js'
import { runLoop, type LoopStart } from '../loop/loop.js'
import { validateExecOptions, validateRuntimeOptions } from '../options/options.js'
import { checkSuppliedHistory, completeMessage } from '../options/supplied-history.js'
import { freshState } from '../state/exec-state.js'
import { claimState, type PendingClaim } from '../state/state-claims.js'
import { childJournal, rootJournal, treeJournal } from '../state/tree-journal.js'
import type { ForkOptions, ForkSource } from '../contract/fork-types.js'
import { forkJournal } from '../state/fork.js'
import { sealedJournal } from '../state/journal-seal.js'
import { checkToolNames, filterTools, indexTools, registry as globalRegistry } from '../tools/registry.js'
import { normalizeTools } from '../tools/tool.js'
import { ToolCache } from '../tools/tool-cache.js'
import { ToolSlots } from '../tools/tool-slots.js'
import type { SessionStore } from '../contract/session-types.js'
import { closeSession, openSession } from '../sessions/exec-session.js'
import { outputGate, sessionStore, toMessages } from './exec-input.js'
import { applyOwner, ownerSettings } from './owner-defaults.js'
import { prepareResume, restoreTree } from './resume.js'
import { fallbackResult, refused } from './run-endings.js'
import { attachHandoffs, isTransferTool, openHandoffs, resumeHandoffs, resumedTools } from '../handoffs/index.js'
import { attachTo, RunRegistry, type AttachedRun } from './run-registry.js'

type Listener<T extends AgentEventType | '*'> = (event: T extends AgentEventType ? EventOf<T> : AgentEvent) => void

/**
 * Holds a provider, a model and the rules; opens execs. Inside a tool body, `exec` opens a child
 * of the running exec (found through AsyncLocalStorage), whichever runtime it is called on.
 */
export class Runtime {
  readonly options: Readonly<RuntimeOptions>
  /** Results of `cacheable` tools, keyed by call signature (and scope), shared by every exec of this runtime; bounded by entries and TTL. */
  readonly cache = new ToolCache()
  /** Per-tool `concurrency` limits, shared by every exec and batch of this runtime. */
  private readonly slots = new ToolSlots()
  private readonly listeners = new Listeners()
  private readonly settings: LoopSettings
  private readonly runs: RunRegistry

  constructor(options: RuntimeOptions) {
    validateRuntimeOptions(options)
    if (options.guardrails) checkGuardrailOptions(options.guardrails, 'guardrails')
    this.options = options
    this.runs = new RunRegistry(options.retention)
    this.settings = runtimeSettings(options)
  }

  /** The runtime's session store (`sessions` option): messages, list, fork, delete, each by owner. */
  get sessions(): SessionStore {
    return sessionStore(this.options)
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
  exec<S extends OutputSchema | undefined = undefined, const C extends string = never>(
    input: ExecInput,
    given: ExecOptions<S, C> = {},
  ): ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>> {
    return this.openExec({ input }, given, currentFrame())
  }

  /** A child of `under` that Nestor opens itself (ExecHost): nested like a tool body's exec, with no tool running. */
  [openNested](under: Nesting, input: ExecInput, options: ExecOptions): ExecRun {
    return this.openExec({ input }, options, under, true)
  }

  /** An exec from its input, or from one read later (a fork's, from the recorded run). */
  private openExec<S extends OutputSchema | undefined, const C extends string = never>(
    from: { input: ExecInput } | { recorded: Promise<Message[]> },
    given: ExecOptions<S, C>,
    frame: Nesting | undefined,
    ownStep = false,
  ): ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>> {
    validateExecOptions(given)
    const { options, settings } = applyOwner(this.options.registry, given)
    const store = options.session && sessionStore(this.options)
    // Compiled before anything runs: a schema that cannot be an output fails here, synchronously.
    const output = outputGate(options)
    const guardrails = execGuardrails(this.options.guardrails, options.guardrails, frame?.ctx, this, ownStep)
    if (store && frame)
      throw invalidOption('session', 'no session in a nested exec (its turns are its tool result)', options.session?.id)
    const tools = this.resolveTools(options, frame)
    const handoffs = openHandoffs(options, tools)
    const choice = options.toolChoice
    if (typeof choice === 'object' && !tools.has(choice.name)) {
      throw invalidOption(
        'toolChoice',
        `the name of one of this exec's tools (${[...tools.keys()].join(', ') || 'none'})`,
        choice.name,
      )
    }
    const messages = 'input' in from ? toMessages(from.input) : []
    if ('input' in from && messages.length === 0 && (options.history ?? []).length === 0) {
      // A model call needs at least one message: refuse here rather than send `messages: []`.
      throw invalidOption('input', 'at least one message (in input or options.history)', from.input)
    }
    const history = (options.history ?? []).map(completeMessage)
    if (options.history) checkSuppliedHistory(history, messages)
    const budget = options.maxIterations ?? this.options.maxIterations ?? 20
    // A nested exec inherits its parent's per-exec cap unless it sets its own.
    const toolCallBudget =
      options.maxToolCalls ?? frame?.ctx.state.toolCallBudget ?? this.options.maxToolCalls ?? Infinity
    // A root opens the tree's journal (in memory at least: a pause at any depth resumes from the
    // root); a nested exec takes its place in its tree's, and a replayed child its old execId,
    // so approval paths stay the same.
    const child = frame ? childJournal(frame.ctx.journal, frame.toolCallId) : undefined
    const execId = child?.execId ?? generateId('exec')
    const journal = frame
      ? child?.journal
      : rootJournal(treeJournal(options.runId ?? execId, this.sealed(options.journal)))
    const ctx = this.open({
      frame,
      tools: new ToolSet(
        tools,
        (list) => filterTools(list, options.toolsAllow, options.toolsDeny),
        this.settings.strictArguments,
      ),
      options,
      state: freshState(history, history.length, budget, toolCallBudget),
      execId,
      ...(journal && { journal }),
      ...(output && { output }),
      ...(settings && { settings }),
      ...(guardrails && { guardrails }),
    })
    attachHandoffs(ctx, handoffs, options.agent)
    // A journaled root keeps its input (redacted) with its first model step: a fork needs it.
    const keep = (input: Message[]) => {
      if (journal && !frame && options.journal) journal.input = ctx.env.redact(input)
      return input
    }
    const recorded = 'input' in from ? undefined : from.recorded.then(keep)
    // A refused exec never reads it: no unhandled rejection.
    recorded?.catch(() => undefined)
    const start: LoopStart = recorded ? { recorded } : { input: keep(messages) }
    if (ctx.depth > ctx.tree.maxDepth)
      return this.start(
        ctx,
        start,
        new NestorError(
          'max_depth',
          `max depth ${ctx.tree.maxDepth} exceeded: this exec would run at depth ${ctx.depth}`,
        ),
      ) as ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>>
    const session = options.session
    const opening = store && session ? () => openSession(ctx, store, session) : undefined
    return this.start(ctx, start, undefined, opening) as ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>>
  }

  /**
   * Replays a recorded run up to `source.at`, applies `source.edit` there, goes on live as
   * `options.runId` (docs/evals.md). Without `source.input` the input comes from the journal.
   */
  fork(source: ForkSource, options: ForkOptions): ExecRun {
    const fork = forkJournal(source, options.runId, options.journal, this.options.stateSecret)
    const forkOptions = { ...options, journal: fork.journal }
    if (source.input !== undefined) return this.exec(source.input, forkOptions)
    return this.openExec({ recorded: fork.input() }, forkOptions, currentFrame())
  }

  /**
   * Continues a paused exec from its RunState (also in another process, on a new Runtime): runs
   * the approved calls (edited ones validated again), answers rejected ones, and goes on with the
   * same counters. Tools come by name from `options.tools` (else the registry); `options.guardrails` as on exec.
   */
  resume(state: RunState, decisions: ResumeDecisions = {}, options: ResumeOptions = {}): ExecRun {
    const { session, guardrails: own, ...rest } = options
    const store = session && sessionStore(this.options)
    const journal = this.sealed(rest.journal)
    const given = () => (options.tools ? normalizeTools(options.tools) : this.registryTools())
    // Asked for once the state is verified: the handoffs find its active agent among theirs.
    let handoffs: ReturnType<typeof resumeHandoffs>
    const resumed = prepareResume(state, decisions, journal ? { ...rest, journal } : rest, {
      stateSecret: this.options.stateSecret,
      tools: () => indexTools(resumedTools((handoffs = resumeHandoffs(state, options)), given)),
    })
    const frame = currentFrame()
    const guardrails = execGuardrails(this.options.guardrails, own, frame?.ctx, this)
    const ctx = this.open({
      frame,
      tools: new ToolSet(resumed.tools, undefined, this.settings.strictArguments),
      options: resumed.options,
      state: resumed.state,
      execId: resumed.execId,
      journal: rootJournal(resumed.journal),
      ...ownerSettings(this.options.registry, resumed.options.owner),
      ...(guardrails && { guardrails }),
    })
    attachHandoffs(ctx, handoffs?.plan, undefined, handoffs?.active)
    if (ctx.depth === 0) restoreTree(ctx.tree, resumed.tree)
    // Claimed last, once everything else checked out: a refused resume leaves the state unspent.
    const claim = claimState(this.options.claimState, resumed.stateId, resumed.expiresAt)
    const start = { resume: { message: resumed.message, remaining: resumed.remaining } }
    // A resumed exec keeps its place in its session: it appends after the turns it stored before the pause.
    const reopen = () => store && session && openSession(ctx, store, session, { pausedAt: resumed.message })
    const opening = claim ? claim.then((lost) => lost ?? reopen()) : store && reopen
    return this.start(ctx, start, undefined, opening)
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
  private batchContext({ tools, signal, onEvent, ask }: BatchOptions): ExecContext {
    const ctx = this.open({
      frame: undefined,
      tools: new ToolSet(
        indexTools(tools ? normalizeTools(tools) : this.registryTools()),
        undefined,
        this.settings.strictArguments,
      ),
      options: { ...(signal && { signal }), ...(ask && { ask }) },
      state: freshState([], 0, this.options.maxIterations ?? 20),
      execId: generateId('batch'),
      // A batch runs what its plan names: repeats are meant, and there is no loop to stop.
      settings: { duplicateCalls: 'allow', stopAtTools: new Set() },
    })
    if (onEvent) ctx.control.log.onPush = onEvent
    return ctx
  }

  /** A journal as this runtime reads and writes it: authenticated when it has a stateSecret. */
  private sealed(journal: Journal | undefined): Journal | undefined {
    return journal && sealedJournal(journal, this.options.stateSecret)
  }

  private registryTools(): Tool[] {
    return (this.options.registry ?? globalRegistry).list()
  }

  private resolveTools(options: ExecOptions, frame: Nesting | undefined): Map<string, Tool> {
    let tools: Tool[]
    if (options.tools !== undefined) tools = normalizeTools(options.tools)
    else if (options.toolset === 'none') tools = []
    else if (frame && options.toolset === undefined) {
      // A child inherits what its parent resolved, minus the tool whose body is running.
      const running = 'runningTool' in frame ? frame.runningTool : undefined
      tools = [...frame.ctx.tools.values()].filter((t) => t.spec.name !== running && !isTransferTool(t))
    } else tools = this.registryTools()
    const { toolsAllow, toolsDeny, stopAtTools } = options
    checkToolNames(tools, { toolsAllow, toolsDeny, stopAtTools })
    return indexTools(filterTools(tools, options.toolsAllow, options.toolsDeny))
  }

  private open(what: NewExec): ExecContext {
    return openContext(
      {
        host: this,
        listeners: this.listeners,
        settings: this.settings,
        cache: this.cache,
        slots: this.slots,
        replayWindow: this.runs.replayWindow,
      },
      what,
    )
  }

  private start(
    ctx: ExecContext,
    start: LoopStart,
    refuse?: NestorError,
    claim?: PendingClaim | (() => PendingClaim | undefined),
  ): ExecRun {
    // Opened before the loop publishes agent_start; only root execs (children are in their stream).
    // A root exec past retention.maxLiveRuns ends at once, refused, and is not kept.
    const full = ctx.parent ? undefined : this.runs.refusal()
    refuse ??= full
    const retained = ctx.parent || full ? undefined : this.runs.open(ctx.execId, ctx.control.log)
    // An asynchronous claim (a shared store) is settled before anything runs; a lost one ends the
    // exec without a model or tool call.
    // A session is opened (its lease taken) only for an exec that is not refused.
    const pending = typeof claim === 'function' ? (refuse ? undefined : claim()) : claim
    const body = pending
      ? pending.then((lost) => (lost ? refused(ctx, start, lost) : runLoop(ctx, start)))
      : refuse
        ? refused(ctx, start, refuse)
        : runLoop(ctx, start)
    const result = body
      .catch((error: unknown) => fallbackResult(ctx, error))
      .then(async (result) => {
        if (ctx.parent) addUsage(ctx.parent.state.totalUsage, result.totalUsage)
        await closeSession(ctx)
        return result
      })
      .finally(() => {
        ctx.control.log.close()
        ctx.control.unlink()
      })
    const run = new ExecRun(ctx, result)
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
    ctx.control.unlink()
    throw error
  }
  return running.finally(() => ctx.control.unlink())
}

/** The module-level exec(): runs on the runtime of the current frame; `no_runtime` outside one. */
export function exec<S extends OutputSchema | undefined = undefined, const C extends string = never>(
  input: ExecInput,
  options: ExecOptions<S, C> = {},
): ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>> {
  const frame = currentFrame()
  if (!frame)
    throw new NestorError(
      'no_runtime',
      'exec() was called outside any exec: call runtime.exec() first, or call exec() from inside a tool body (where AsyncLocalStorage is missing, as in browsers, use the tool context: ctx.exec(input, options))',
    )
  // The host of every exec is a Runtime: its exec returns an ExecRun.
  return frame.ctx.env.host.exec(input, options) as ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>>
}
