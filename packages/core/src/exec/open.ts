import { internalController, onAbort } from '../base/abort-watch.js'
import { EventLog } from '../events/event-log.js'
import type { ExecContext, ExecEnv, ExecState, LoopSettings, TreeState } from './context.js'
import type { Frame } from './frame.js'
import type { Listeners } from './listeners.js'
import { MessageQueue } from './message-queue.js'
import { eventRedactor } from '../events/redact.js'
import type { Runtime } from '../runtime/runtime.js'
import type { AgentEvent } from '../contract/event-types.js'
import type { ExecOptions } from '../contract/exec-types.js'
import type { Message, Tool } from '../contract/types.js'
import { emptyUsage } from './usage.js'

/** What a runtime lends each exec it opens. */
export type ContextOwner = {
  runtime: Runtime
  listeners: Listeners
  settings: LoopSettings
  /** How many of its latest events a run keeps for late readers (see EventLog). */
  replayWindow: number
}

/** What a new exec is opened with: the frame it runs in (none at the root), its tools, options and state. */
export type NewExec = {
  frame: Frame | undefined
  tools: Map<string, Tool>
  options: ExecOptions
  state: ExecState
  execId: string
}

/** The state of an exec that has done nothing yet. */
export function freshState(history: Message[], startIndex: number, iterationBudget: number): ExecState {
  return {
    history,
    startIndex,
    iterationsUsed: 0,
    iterationBudget,
    usage: emptyUsage(),
    totalUsage: emptyUsage(),
    receipts: [],
    succeeded: new Map(),
    streaks: new Map(),
    toolCallIds: new Set(),
    decisions: new Map(),
  }
}

/**
 * Builds the context of a new exec (a child when `frame` is set): its environment from the
 * options, the parent and the runtime; the given state; fresh controls linked to the signals.
 */
export function openContext(owner: ContextOwner, { frame, tools, options, state, execId }: NewExec): ExecContext {
  const { runtime, listeners } = owner
  const rt = runtime.options
  const parent = frame?.ctx
  // A child of another runtime's exec takes that runtime's provider, model and system prompt only
  // when asked; one of the same runtime inherits its parent's.
  const inherit = parent?.env.runtime === runtime ? parent.env : undefined
  const provider = options.provider ?? inherit?.provider ?? rt.provider
  const tree: TreeState = parent ? parent.tree : rootTree(runtime)
  if (parent && !tree.approve && rt.approve) tree.approve = rt.approve
  // A child also applies its ancestors' secrets: its events flow into their streams.
  const secrets = [
    ...new Set([...(parent?.env.secrets ?? []), ...(rt.secrets ?? []), ...(provider.secrets?.() ?? [])]),
  ].filter((s) => s.length >= 4)
  // Events are redacted snapshots: a live object could gain a secret after it was redacted.
  const redact = eventRedactor(secrets)
  redact.seal(state.history)
  // Built once per exec, not per dispatched event: listeners (tracers, loggers) get most events.
  const redactText = (text: string): string => redact(text)
  const log = new EventLog<AgentEvent>(owner.replayWindow, `exec ${execId}`)
  const settings = options.providerOptions
    ? { ...owner.settings, providerOptions: { ...owner.settings.providerOptions, ...options.providerOptions } }
    : owner.settings
  const system = options.system ?? (inherit ? inherit.system : rt.system)
  const env: ExecEnv = {
    runtime,
    provider,
    model: options.model ?? inherit?.model ?? rt.model,
    ...(system !== undefined && { system }),
    tools,
    specs: [...tools.values()].map((t) => t.spec),
    ...(options.parallelToolCalls !== undefined && { parallelToolCalls: options.parallelToolCalls }),
    settings,
    cache: runtime.cache,
    redact,
    secrets,
    publish(event) {
      log.push(event)
      // An ancestor that already ended takes nothing more into its stream.
      for (let p = ctx.parent; p; p = p.parent) if (!p.control.ended) p.control.log.push(event)
      if (listeners.has(event.type)) listeners.dispatch(event, redactText)
    },
  }
  if (options.toolChoice !== undefined) state.toolChoice = options.toolChoice
  const controller = internalController()
  const ctx: ExecContext = {
    execId,
    depth: parent ? parent.depth + 1 : 0,
    path: parent ? [...parent.path, execId] : [execId],
    tree,
    env,
    state,
    control: {
      controller,
      steering: new MessageQueue(rt.queueMode ?? 'all'),
      followUp: new MessageQueue(rt.queueMode ?? 'all'),
      log,
      seq: 0,
      ended: false,
      pausedCalls: new Set(),
    },
  }
  if (parent) {
    ctx.parent = parent
    ctx.parentExecId = parent.execId
    if (frame) ctx.parentToolCallId = frame.toolCallId
  }
  linkAbort(controller, [options.signal, frame?.signal])
  return ctx
}

function rootTree(runtime: Runtime): TreeState {
  const rt = runtime.options
  return {
    iterations: 0,
    tokens: 0,
    startedAt: Date.now(),
    maxDepth: rt.maxDepth ?? 8,
    ...(rt.maxTotalIterations !== undefined && { maxTotalIterations: rt.maxTotalIterations }),
    ...(rt.maxTotalTokens !== undefined && { maxTotalTokens: rt.maxTotalTokens }),
    ...(rt.deadlineMs !== undefined && { deadlineMs: rt.deadlineMs }),
    ...(rt.approve !== undefined && { approve: rt.approve }),
  }
}

// Abort links are removed when the exec ends, so a long-lived parent signal does not collect
// listeners from every child it ever had.
const links = new WeakMap<AbortController, () => void>()
function linkAbort(controller: AbortController, signals: (AbortSignal | undefined)[]): void {
  const cleanups: (() => void)[] = []
  for (const signal of signals) {
    if (!signal) continue
    if (signal.aborted) {
      controller.abort(signal.reason)
      continue
    }
    cleanups.push(onAbort(signal, () => controller.abort(signal.reason)))
  }
  if (cleanups.length) links.set(controller, () => cleanups.forEach((c) => c()))
}
export function unlinkAbort(controller: AbortController): void {
  links.get(controller)?.()
  links.delete(controller)
}
