import { internalController, onAbort } from '../base/abort-watch.js'
import type { AgentEvent } from '../contract/event-types.js'
import type { ExecOptions } from '../contract/exec-types.js'
import { EventLog } from '../events/event-log.js'
import { eventRedactor } from '../events/redact.js'
import type { OutputGate } from '../schema/output.js'
import type { ExecState } from '../state/exec-state.js'
import type { ExecJournal } from '../state/tree-journal.js'
import type { ToolCache } from '../tools/tool-cache.js'
import type { ToolSlots } from '../tools/tool-slots.js'
import type { ExecContext, ExecEnv, ExecHost, GuardrailSet, LoopSettings, Nesting, TreeState } from './context.js'
import type { Listeners } from './listeners.js'
import { currentScope } from './provider-scope.js'
import { MessageQueue } from './message-queue.js'
import { execSettings } from './settings.js'
import type { ToolSet } from './tool-set.js'

/** What a runtime lends each exec it opens. */
export type ContextOwner = {
  host: ExecHost
  listeners: Listeners
  settings: LoopSettings
  cache: ToolCache
  slots: ToolSlots
  /** How many of its latest events a run keeps for late readers (see EventLog). */
  replayWindow: number
}

/** What a new exec is opened with: where it nests (none at the root), its tools, options and state. */
export type NewExec = {
  frame: Nesting | undefined
  tools: ToolSet
  options: ExecOptions
  state: ExecState
  execId: string
  journal?: ExecJournal
  output?: OutputGate
  /** Settings that differ from the runtime's for this exec (a batch's). */
  settings?: Partial<LoopSettings>
  /** Its guardrails, resolved by the runtime (guardrails/define.ts). */
  guardrails?: GuardrailSet
}

/**
 * Builds the context of a new exec (a child when `frame` is set): its environment from the
 * options, the parent and the runtime; the given state; fresh controls linked to the signals.
 * Nothing of the environment changes after this.
 */
export function openContext(owner: ContextOwner, exec: NewExec): ExecContext {
  const { host, listeners } = owner
  const { frame, options, state, execId } = exec
  const rt = host.options
  const parent = frame?.ctx
  // A child of another runtime's exec takes that runtime's provider, model and system prompt only
  // when asked; one of the same runtime inherits its parent's. Else a `withProvider` scope around
  // the call (an eval's cassette) stands in for the runtime's provider.
  const inherit = parent?.env.host === host ? parent.env : undefined
  const scope = currentScope()
  const provider = options.provider ?? inherit?.provider ?? scope?.provider ?? rt.provider
  // A child also applies its ancestors' secrets: its events flow into their streams.
  const secrets = [
    ...new Set([...(parent?.env.secrets ?? []), ...(rt.secrets ?? []), ...(provider.secrets?.() ?? [])]),
  ].filter((s) => s.length >= 4)
  // A scope that keeps what these execs do (an eval's cassettes and report) redacts it the same way.
  if (secrets.length > 0) scope?.onSecrets?.(secrets)
  // Events are redacted snapshots: a live object could gain a secret after it was redacted.
  const redact = eventRedactor(secrets)
  redact.seal(state.history)
  // Built once per exec, not per dispatched event: listeners (tracers, loggers) get most events.
  const redactText = (text: string): string => redact(text)
  const log = new EventLog<AgentEvent>(owner.replayWindow, `exec ${execId}`)
  const settings = execSettings(owner.settings, options, exec.settings)
  const system = options.system ?? (inherit ? inherit.system : rt.system)
  // The nearest handler up the tree decides; a child of a runtime with its own handler uses it.
  const approve = parent?.env.approve ?? rt.approve
  const context = options.context ?? inherit?.context ?? rt.context
  const maxCostUsd = options.maxCostUsd ?? rt.maxCostUsd
  const env: ExecEnv = {
    host,
    provider,
    model: options.model ?? inherit?.model ?? rt.model,
    ...(system !== undefined && { system }),
    ...(options.parallelToolCalls !== undefined && { parallelToolCalls: options.parallelToolCalls }),
    ...(options.stopAtTools && { stopAtTools: options.stopAtTools }),
    ...(options.owner !== undefined && { owner: options.owner }),
    ...(exec.output && { output: exec.output }),
    ...(approve && { approve }),
    ...(context && { context }),
    ...(maxCostUsd !== undefined && { maxCostUsd }),
    ...(exec.guardrails && { guardrails: exec.guardrails }),
    settings,
    cache: owner.cache,
    slots: owner.slots,
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
    tree: parent ? parent.tree : rootTree(owner),
    env,
    tools: exec.tools,
    state,
    control: {
      controller,
      steering: new MessageQueue(rt.queueMode ?? 'all'),
      followUp: new MessageQueue(rt.queueMode ?? 'all'),
      log,
      seq: 0,
      ended: false,
      pausedBelow: new Map(),
      unlink: linkAbort(controller, [options.signal, frame?.signal]),
    },
    window: { trustedFrom: 0 },
    ...(exec.journal && { journal: exec.journal }),
    ...(parent && { parent, parentExecId: parent.execId }),
    ...(frame && { parentToolCallId: frame.toolCallId }),
  }
  // The exec's waits on its journal store end with its abort.
  if (exec.journal) exec.journal.signal = controller.signal
  return ctx
}

function rootTree({ host }: ContextOwner): TreeState {
  const rt = host.options
  return {
    iterations: 0,
    tokens: 0,
    costUsd: 0,
    toolCalls: 0,
    startedAt: Date.now(),
    maxDepth: rt.maxDepth ?? 8,
    ...(rt.maxTotalIterations !== undefined && { maxTotalIterations: rt.maxTotalIterations }),
    ...(rt.maxTotalToolCalls !== undefined && { maxTotalToolCalls: rt.maxTotalToolCalls }),
    ...(rt.maxTotalTokens !== undefined && { maxTotalTokens: rt.maxTotalTokens }),
    ...(rt.maxTotalCostUsd !== undefined && { maxTotalCostUsd: rt.maxTotalCostUsd }),
    ...(rt.deadlineMs !== undefined && { deadlineMs: rt.deadlineMs }),
  }
}

/**
 * Aborts `controller` with any of the signals; returns what removes the links, called when the
 * exec ends, so a long-lived parent signal does not collect listeners from every child it had.
 */
function linkAbort(controller: AbortController, signals: (AbortSignal | undefined)[]): () => void {
  const cleanups: (() => void)[] = []
  for (const signal of signals) {
    if (!signal) continue
    if (signal.aborted) {
      controller.abort(signal.reason)
      continue
    }
    cleanups.push(onAbort(signal, () => controller.abort(signal.reason)))
  }
  return () => {
    for (const cleanup of cleanups) cleanup()
    cleanups.length = 0
  }
}
