import { untilAbort } from '../base/abort-watch.js'
import { NestorError, messageOf } from '../contract/errors.js'
import type { ContextInfo, ContextOptions } from '../contract/exec-types.js'
import type { Message } from '../contract/types.js'
import { stateSchemas } from '../contract/run-state-schema.js'
import { emit, type ExecContext } from '../exec/context.js'
import { pairingProblem } from '../options/supplied-history.js'
import { runInFrame } from '../exec/frame.js'
import { callHook } from '../exec/hooks.js'
import { recordCompaction, replayedCompaction, turnRecorded } from '../state/tree-journal.js'
import { applyCompaction, cutIndex, diffOf, headEnd, transcriptOf, type Compaction } from './compaction.js'
import { fixedTokens, messagesTokens, messageTokens, reportedTokens } from './estimate.js'
import type { Overflow } from './overflow.js'

// Compaction brings the request well under the limit, not just under it, so it happens once per
// stretch of turns: the prefix the provider caches then survives until the next one.
const TARGET_SHARE = 0.5
/** The summary is asked to stay within this share of the window. */
const SUMMARY_SHARE = 0.05
const SUMMARY_SYSTEM =
  'You write the working memory of an assistant that is in the middle of a task. Summarize the ' +
  'transcript you are given so the assistant can go on without it: the facts it found, the ' +
  'decisions taken, names, numbers and results of tools, and what is still to do. Reply with the ' +
  'summary only.'

type Limits = { maxTokens: number; reserveTokens: number }
type Reason = ContextInfo['reason']

// Per exec and never stored: the window it runs in, and from which message on the provider's
// reported usage describes the history as it now is (an older report counts cut messages).
const limitsByExec = new WeakMap<ExecContext, Promise<Limits | undefined>>()
const trustedFrom = new WeakMap<ExecContext, number>()

/** Before a model call: compacts the history when the request would not fit (or replays the recorded compaction). */
export async function fitWindow(ctx: ExecContext, iteration: number): Promise<void> {
  if (replayCompactions(ctx, iteration) || turnRecorded(ctx.journal, iteration)) return
  const limits = await limitsOf(ctx)
  if (!limits) return
  const room = limits.maxTokens - limits.reserveTokens
  const tokens = requestTokens(ctx)
  if (tokens <= room) return
  await compact(ctx, iteration, 'limit', limits, tokens)
}

/**
 * After the provider refused the request as too long: compacts once toward what it said its limit
 * is. False when nothing could be cut (the caller then fails `context_overflow`).
 */
export async function compactAfterOverflow(ctx: ExecContext, iteration: number, overflow: Overflow): Promise<boolean> {
  const known = await limitsOf(ctx)
  const tokens = requestTokens(ctx)
  const maxTokens = Math.min(known?.maxTokens ?? Infinity, overflow.limit ?? Infinity, tokens)
  const reserveTokens = known?.reserveTokens ?? reserveFor(maxTokens)
  return compact(
    ctx,
    iteration,
    'overflow',
    { maxTokens, reserveTokens: Math.min(reserveTokens, maxTokens / 2) },
    tokens,
    // What the event reports as before: the provider's own count, when its error says it.
    overflow.tokens,
  )
}

/** The `context_overflow` failure: by how much the request is over, as the provider or the estimate says. */
export function overflowError(ctx: ExecContext, overflow: Overflow): NestorError {
  const tokens = overflow.tokens ?? requestTokens(ctx)
  const over =
    overflow.limit !== undefined
      ? `${tokens} tokens against a window of ${overflow.limit} (${tokens - overflow.limit} over)`
      : `about ${tokens} tokens, more than the model takes`
  return new NestorError(
    'context_overflow',
    `the request does not fit the model's context window even after compacting: ${over}`,
    { provider: ctx.env.provider.name },
  )
}

/**
 * The request's estimated tokens: what the provider reported for the latest assistant turn (its
 * request and itself) plus an estimate of each message after it; the whole history estimated
 * when no report describes it. Only this exec's own turns are reports: the usage on supplied
 * history (hand-written, or from another run with other tools) measured some other request.
 */
export function requestTokens(ctx: ExecContext): number {
  const history = ctx.state.history
  const trusted = Math.max(trustedFrom.get(ctx) ?? 0, ctx.state.startIndex)
  let added = 0
  for (let i = history.length - 1; i >= trusted; i--) {
    const message = history[i] as Message
    if (message.role === 'assistant' && message.usage.input > 0) return reportedTokens(message) + added
    added += cachedTokens(message)
  }
  let earlier = 0
  for (let i = trusted - 1; i >= 0; i--) earlier += cachedTokens(history[i] as Message)
  return fixedTokens(ctx.env.system, ctx.tools.specs) + earlier + added
}

// Messages never change once in the history: each is estimated once.
const estimates = new WeakMap<Message, number>()
function cachedTokens(message: Message): number {
  let tokens = estimates.get(message)
  if (tokens === undefined) estimates.set(message, (tokens = messageTokens(message)))
  return tokens
}

async function compact(
  ctx: ExecContext,
  iteration: number,
  reason: Reason,
  limits: Limits,
  tokens: number,
  counted?: number,
) {
  const history = ctx.state.history
  const targetTokens = Math.floor((limits.maxTokens - limits.reserveTokens) * TARGET_SHARE)
  const info: ContextInfo = { ...limits, tokens, targetTokens, iteration, reason }
  const strategy = ctx.env.context?.strategy ?? 'summarize'
  let compaction: Compaction | undefined
  if (typeof strategy === 'function') {
    const returned = await untilAbort(
      callHook('context.strategy', () => strategy(history.slice(), info)),
      ctx.control.controller.signal,
      abortedWaiting,
    )
    compaction = diffOf(history, checkedHistory(returned))
  } else {
    const head = headEnd(history)
    const fixed = fixedTokens(ctx.env.system, ctx.tools.specs)
    const summaryTokens = strategy === 'summarize' ? Math.floor(limits.maxTokens * SUMMARY_SHARE) : 0
    const headTokens = messagesTokens(history.slice(0, head))
    const cut = cutIndex(history, head, targetTokens - fixed - headTokens - summaryTokens)
    if (cut === undefined) return false
    const replacement =
      strategy === 'summarize' ? [await summaryOf(ctx, iteration, reason, history.slice(head, cut), limits)] : []
    compaction = { from: head, to: cut, replacement }
  }
  if (compaction.to === compaction.from && compaction.replacement.length === 0) return false
  const before = { messages: history.length, tokens: counted ?? tokens }
  applyTo(ctx, compaction)
  const after = { messages: history.length, tokens: requestTokens(ctx) }
  const kind = typeof strategy === 'function' ? 'custom' : strategy
  const saved = recordCompaction(ctx.journal, iteration, reason, { ...compaction, strategy: kind, before, after })
  if (saved) await saved
  emit(ctx, { type: 'context_compacted', strategy: kind, reason, before, after })
  return true
}

/**
 * Compacts the exec's history in place. A call whose result was cut is forgotten by the
 * duplicate gate: the model no longer sees that result, so asking again is not a repeat.
 */
function applyTo(ctx: ExecContext, compaction: Compaction): void {
  const { state } = ctx
  state.startIndex = applyCompaction(state.history, state.startIndex, compaction)
  trustedFrom.set(ctx, state.history.length)
  if (state.succeeded.size === 0) return
  const kept = new Set<string>()
  for (const message of state.history) if (message.role === 'toolResult') kept.add(message.toolCallId)
  for (const [signature, id] of state.succeeded) if (!kept.has(id)) state.succeeded.delete(signature)
}

/** Applies the compactions this run recorded before turn `iteration`; true when there were any. */
function replayCompactions(ctx: ExecContext, iteration: number): boolean {
  let replayed = false
  for (const reason of ['limit', 'overflow'] as const) {
    const entry = replayedCompaction(ctx.journal, iteration, reason)
    if (!entry) continue
    const { from, to, replacement, strategy, before, after } = entry as unknown as Compaction & {
      strategy: 'summarize' | 'truncate' | 'custom'
      before: { messages: number; tokens: number }
      after: { messages: number; tokens: number }
    }
    applyTo(ctx, { from, to, replacement })
    emit(ctx, { type: 'context_compacted', strategy, reason, before, after, replayed: true })
    replayed = true
  }
  return replayed
}

/**
 * The summary of the cut turns, written by the model in a nested exec without tools: its events
 * stream at depth + 1, its usage joins this exec's total, and its turn is journaled like any other.
 */
async function summaryOf(ctx: ExecContext, iteration: number, reason: Reason, cut: Message[], limits: Limits) {
  const words = Math.max(100, Math.floor(limits.maxTokens * SUMMARY_SHARE * 0.75))
  // The summarizer's own request must fit the window: its transcript gets three quarters of the room.
  const maxChars = (limits.maxTokens - limits.reserveTokens) * 3
  const input = `Summarize in at most ${words} words:\n\n${transcriptOf(cut, maxChars)}`
  const signal = ctx.control.controller.signal
  const frame = { ctx, runningTool: '', toolCallId: `context-${iteration}-${reason}`, signal }
  const result = await runInFrame(frame, () =>
    ctx.env.host.exec(input, { toolset: 'none', system: SUMMARY_SYSTEM, maxIterations: 1, signal }),
  )
  if (result.status !== 'completed' || !result.text)
    throw (
      result.error ??
      new NestorError('provider_error', `the summary for compacting the context came back empty`, {
        provider: ctx.env.provider.name,
      })
    )
  const summary: Message = {
    role: 'user',
    content: `[A summary of the earlier part of this conversation, which was compacted to fit the context window]\n${result.text}`,
  }
  return summary
}

/** A custom strategy's history, checked; one that throws while read (a getter, a proxy) is the hook's fault. */
function checkedHistory(returned: unknown): Message[] {
  try {
    return checkHistory(returned)
  } catch (error) {
    if (NestorError.isInstance(error)) throw error
    throw new NestorError(
      'hook_error',
      `the context.strategy hook returned a history that throws when read: ${messageOf(error)}`,
      { cause: error },
    )
  }
}

function checkHistory(returned: unknown): Message[] {
  const bad = (why: string) =>
    new NestorError('invalid_options', `invalid option context.strategy: it returned a history that ${why}`)
  if (!Array.isArray(returned)) throw bad('is not an array of messages')
  const { messageSchema } = stateSchemas()
  for (const [index, message] of returned.entries())
    if (!messageSchema.safeParse(message).success) throw bad(`has a malformed message at ${index}`)
  const problem = pairingProblem(returned as Message[])
  if (problem)
    throw bad(`breaks a tool call from its result: at message ${problem.index}, ${problem.why((i) => `message ${i}`)}`)
  return returned as Message[]
}

function limitsOf(ctx: ExecContext): Promise<Limits | undefined> {
  let limits = limitsByExec.get(ctx)
  if (!limits) limitsByExec.set(ctx, (limits = resolveLimits(ctx, ctx.env.context ?? {})))
  return limits
}

async function resolveLimits(ctx: ExecContext, options: ContextOptions): Promise<Limits | undefined> {
  const { provider, model } = ctx.env
  // The adapter's capabilities may be a network call (Ollama's /api/show); failing it means unknown.
  let known = options.maxTokens
  if (known === undefined && provider.capabilities) {
    const asked = Promise.resolve()
      .then(() => provider.capabilities?.(model))
      .catch(() => undefined)
    known = (await untilAbort(asked, ctx.control.controller.signal, abortedWaiting))?.contextWindow
  }
  if (known === undefined) return undefined
  return { maxTokens: known, reserveTokens: options.reserveTokens ?? reserveFor(known) }
}

const abortedWaiting = () => new NestorError('aborted', 'aborted while the context window was being fitted')

const reserveFor = (maxTokens: number): number =>
  Math.min(Math.max(1024, Math.round(maxTokens / 6)), 32_768, Math.floor(maxTokens / 2))
