import { ABORTED, raceAbort } from '../base/abort-watch.js'
import { generateId } from '../base/ids.js'
import type { AssistantMessage, Message, ModelRequest, ToolCall, ToolSpec } from '../contract/types.js'
import type { NestorError } from '../contract/errors.js'
import { addUsage } from '../contract/usage.js'
import { append, emit, type ExecContext } from '../exec/context.js'
import { checkCostBudgets } from '../exec/cost-budget.js'
import { callHook } from '../exec/hooks.js'
import { journalLoaded, recordTurn, replayedTurn, takeMessages } from '../state/tree-journal.js'
import { journalFlag } from '../state/edited-steps.js'
import { streamTurn, type TurnOutcome } from './stream-turn.js'
import { estimateTokens } from '../context/estimate.js'
import { compactAfterOverflow, fitWindow, overflowError, overflowOf } from '../context/fit.js'

// The loop's turn source, and with it every place the loop meets the journal: a model turn comes
// from the journal (recorded by an earlier run) or from the provider (live, then recorded), and so
// do the messages taken from the steering and follow-up queues before it.

/** A model turn in the history, its tool calls with ids unique within the exec. */
export type Turn = TurnOutcome & { calls: ToolCall[] }

/**
 * Settles once the journal's recorded steps are loaded, so turns can be replayed (none without a
 * journal); rejects `aborted` as soon as the exec aborts.
 */
export const turnsReady = (ctx: ExecContext): Promise<void> | undefined => journalLoaded(ctx.journal)

/**
 * Turn `iteration`: the history fitted to the window, then the turn replayed or streamed, joined
 * to the history, and recorded before any of its tools runs (a crash from there on never pays
 * for it again). Undefined when the exec was aborted before its request was ready; `refused` when
 * a dollar budget refuses the call.
 */
export async function takeTurn(
  ctx: ExecContext,
  iteration: number,
  steered: boolean,
): Promise<Turn | { refused: NestorError } | undefined> {
  if (ctx.env.context) await fitWindow(ctx, iteration)
  const recorded = replayedTurn(ctx.journal, iteration, ctx.state.history, ctx.state.startIndex)
  let turn: TurnOutcome
  if (recorded) {
    beginTurn(ctx, iteration, recorded.model)
    turn = fromJournal(ctx, recorded)
  } else {
    const preparing = requestFor(ctx, iteration)
    const request = preparing instanceof Promise ? await preparing : preparing
    if (!request) return undefined
    // A dollar budget refuses the call before it is made (docs/cost.md).
    const overBudget = await checkCostBudgets(ctx, request, estimateTokens)
    if (overBudget) return { refused: overBudget }
    beginTurn(ctx, iteration, request.model)
    turn = await fromProvider(ctx, iteration, request, steered)
    if (ctx.env.context) turn = await retryOnOverflow(ctx, iteration, turn)
  }
  const { message } = turn
  ctx.state.history.push(message)
  addUsage(ctx.state.usage, message.usage)
  addUsage(ctx.state.totalUsage, message.usage)
  ctx.tree.tokens += message.usage.total
  ctx.tree.costUsd += message.usage.cost?.total ?? 0
  const calls = uniqueCalls(ctx, message)
  if (!recorded && message.stopReason !== 'error' && message.stopReason !== 'aborted') {
    const saved = recordTurn(ctx.journal, iteration, ctx.execId, ctx.state.history, ctx.state.startIndex)
    if (saved) await saved
  }
  return { ...turn, calls }
}

/**
 * The messages waiting in the steering or follow-up queue before model turn `next`, joined to the
 * history: those this run recorded, replayed, else the queue's, recorded. How many were taken.
 */
export function takeQueued(ctx: ExecContext, next: number, queue: 'steering' | 'followUp'): number | Promise<number> {
  const taken = takeMessages(ctx.journal, next, () => ctx.control[queue].drain())
  const join = (): number => {
    for (const message of taken.messages) append(ctx, message, taken.replayed)
    return taken.messages.length
  }
  // Nothing to wait for (no journal, nothing taken): no tick.
  return taken.saved ? taken.saved.then(join) : join()
}

/** A model turn opens (live or replayed): the iteration is counted here and only here. */
function beginTurn(ctx: ExecContext, iteration: number, model: string): void {
  ctx.state.iterationsUsed = iteration
  ctx.tree.iterations++
  emit(ctx, { type: 'turn_start', iteration, iterationBudget: ctx.state.iterationBudget, model })
}

/** Tool calls of a message with ids made unique and non-empty within this exec. */
function uniqueCalls(ctx: ExecContext, message: AssistantMessage): ToolCall[] {
  const calls: ToolCall[] = []
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue
    if (!block.id || ctx.state.toolCallIds.has(block.id)) block.id = generateId('call')
    ctx.state.toolCallIds.add(block.id)
    calls.push(block)
  }
  return calls
}

/** A turn from the journal: no provider call, no deltas; its message events say `replayed`. */
function fromJournal(ctx: ExecContext, message: AssistantMessage): TurnOutcome {
  emit(ctx, { type: 'message_start', message, ...journalFlag(message) })
  emit(ctx, { type: 'message_end', message, ...journalFlag(message) })
  return { message }
}

/**
 * The request of a live turn, or undefined when the exec was aborted before it was ready:
 * prepareTurn runs before the turn opens, and an abort does not wait for it (the exec then ends
 * with no turn events and no empty assistant message).
 */
function requestFor(ctx: ExecContext, iteration: number): ModelRequest | undefined | Promise<ModelRequest | undefined> {
  const signal = ctx.control.controller.signal
  // Without live tools or a prepareTurn hook the request is built at once: no promise to race.
  if (!needsPreparing(ctx))
    return signal.aborted
      ? undefined
      : requestOf(ctx, ctx.env.model, ctx.tools.specs, ctx.state.toolChoice, ctx.state.history)
  return raceAbort(prepareRequest(ctx, iteration), signal).then((request) =>
    request === ABORTED ? undefined : request,
  )
}

/**
 * A turn from the provider. `steered`: steering was taken just before (in 'one' mode nothing
 * more joins this call).
 */
async function fromProvider(
  ctx: ExecContext,
  iteration: number,
  request: ModelRequest,
  steered: boolean,
): Promise<TurnOutcome> {
  // Steering that arrived while the request was prepared (or right after exec() returned)
  // still goes into this model call ('one' mode takes one message per call).
  if (!steered || ctx.control.steering.mode === 'all') {
    const before = ctx.state.history.length
    const queued = takeQueued(ctx, iteration, 'steering')
    const taken = queued instanceof Promise ? await queued : queued
    if (taken > 0 && request.messages !== ctx.state.history)
      request.messages = [...request.messages, ...ctx.state.history.slice(before)]
  }
  return streamTurn(ctx, request)
}

/**
 * A turn the provider refused as too long for the model's window is compacted once and asked
 * again; still too long (or nothing left to cut), the exec fails `context_overflow` (docs/context.md).
 */
async function retryOnOverflow(ctx: ExecContext, iteration: number, turn: TurnOutcome): Promise<TurnOutcome> {
  let overflow = overflowOf(turn.error)
  if (!overflow) return turn
  if (await compactAfterOverflow(ctx, iteration, overflow)) {
    const preparing = requestFor(ctx, iteration)
    const request = preparing instanceof Promise ? await preparing : preparing
    if (!request) return turn
    // The retry is a new call, after a compaction that may have spent: the dollar budgets see it too.
    const overBudget = await checkCostBudgets(ctx, request, estimateTokens)
    if (overBudget) return { message: turn.message, error: overBudget }
    turn = await streamTurn(ctx, request)
    overflow = overflowOf(turn.error)
    if (!overflow) return turn
  }
  return { message: turn.message, error: overflowError(ctx, overflow) }
}

const needsPreparing = (ctx: ExecContext): boolean =>
  ctx.env.settings.hooks.prepareTurn !== undefined || ctx.tools.lists.size > 0

/** Live tool lists are asked again and the prepareTurn hook may change the request. */
async function prepareRequest(ctx: ExecContext, iteration: number): Promise<ModelRequest> {
  if (ctx.tools.lists.size > 0) await ctx.tools.refresh()
  let model = ctx.env.model
  let specs = ctx.tools.specs
  let toolChoice = ctx.state.toolChoice
  let messages = ctx.state.history
  const prepare = ctx.env.settings.hooks.prepareTurn
  if (prepare) {
    const changes = await callHook('prepareTurn', () =>
      prepare({ iteration, messages: ctx.state.history, tools: ctx.tools.specs, toolChoice }),
    )
    if (changes) {
      if (changes.model) model = changes.model
      if (changes.tools) {
        const visible = new Set(changes.tools)
        specs = ctx.tools.specs.filter((s) => visible.has(s.name))
      }
      if (changes.toolChoice) toolChoice = changes.toolChoice
      if (changes.messages) messages = changes.messages
    }
  }
  return requestOf(ctx, model, specs, toolChoice, messages)
}

function requestOf(
  ctx: ExecContext,
  model: string,
  specs: ToolSpec[],
  toolChoice: ModelRequest['toolChoice'],
  messages: Message[],
): ModelRequest {
  const request: ModelRequest = { model, messages, tools: specs }
  const { env } = ctx
  if (env.system !== undefined) request.system = env.system
  if (toolChoice !== undefined) request.toolChoice = toolChoice
  if (env.parallelToolCalls !== undefined) request.parallelToolCalls = env.parallelToolCalls
  if (env.settings.providerOptions) request.options = env.settings.providerOptions
  if (env.settings.maxRetries !== undefined) request.maxRetries = env.settings.maxRetries
  if (env.settings.streamIdleTimeoutMs !== undefined) request.streamIdleTimeoutMs = env.settings.streamIdleTimeoutMs
  if (env.output) request.output = env.output.spec
  if (env.settings.think !== undefined) request.think = env.settings.think
  return request
}
