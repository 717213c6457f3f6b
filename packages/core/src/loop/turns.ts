import { ABORTED, raceAbort } from '../base/abort-watch.js'
import type { AssistantMessage, Message, ModelRequest, ToolSpec } from '../contract/types.js'
import { emit, type ExecContext } from '../exec/context.js'
import { callHook } from '../exec/hooks.js'
import { takeMessages } from '../state/tree-journal.js'
import { journalFlag } from '../state/edited-steps.js'
import { streamTurn, type TurnOutcome } from './stream-turn.js'
import { compactAfterOverflow, overflowError } from '../window/fit.js'
import { overflowOf } from '../window/overflow.js'

// Where a model turn comes from: the journal (recorded by an earlier run) or the provider (live).
// The loop opens the turn (its iteration bookkeeping) between building the request and streaming.

/** A turn from the journal: no provider call, no deltas; its message events say `replayed`. */
export function fromJournal(ctx: ExecContext, message: AssistantMessage): TurnOutcome {
  emit(ctx, { type: 'message_start', message, ...journalFlag(message) })
  emit(ctx, { type: 'message_end', message, ...journalFlag(message) })
  return { message }
}

/**
 * The request of a live turn, or undefined when the exec was aborted before it was ready:
 * prepareTurn runs before the turn opens, and an abort does not wait for it (the exec then ends
 * with no turn events and no empty assistant message).
 */
export function requestFor(
  ctx: ExecContext,
  iteration: number,
): ModelRequest | undefined | Promise<ModelRequest | undefined> {
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
export async function fromProvider(
  ctx: ExecContext,
  iteration: number,
  request: ModelRequest,
  steered: boolean,
): Promise<TurnOutcome> {
  // Steering that arrived while the request was prepared (or right after exec() returned)
  // still goes into this model call ('one' mode takes one message per call).
  if (!steered || ctx.control.steering.mode === 'all') {
    const taken = takeMessages(ctx.journal, iteration, () => ctx.control.steering.drain())
    if (taken.saved) await taken.saved
    for (const message of taken.messages) {
      ctx.state.history.push(message)
      emit(ctx, { type: 'message_start', message })
      emit(ctx, { type: 'message_end', message })
      if (request.messages !== ctx.state.history) request.messages = [...request.messages, message]
    }
  }
  return streamTurn(ctx, request)
}

/**
 * A turn the provider refused as too long for the model's window is compacted once and asked
 * again; still too long (or nothing left to cut), the exec fails `context_overflow` (docs/context.md).
 */
export async function retryOnOverflow(ctx: ExecContext, iteration: number, turn: TurnOutcome): Promise<TurnOutcome> {
  let overflow = overflowOf(turn.error)
  if (!overflow) return turn
  if (await compactAfterOverflow(ctx, iteration, overflow)) {
    const preparing = requestFor(ctx, iteration)
    const request = preparing instanceof Promise ? await preparing : preparing
    if (!request) return turn
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
