import { untilAbort } from '../base/abort-watch.js'
import { takeMessages } from '../state/exec-journal.js'
import { emit, type ExecContext } from '../exec/context.js'
import { callHook } from '../exec/hooks.js'
import { hasLiveTools, refreshLiveTools } from '../exec/live-tools.js'
import { streamTurn, type TurnOutcome } from './stream-turn.js'
import type { AssistantMessage, Message, ModelRequest, UserMessage } from '../contract/types.js'

// One model turn of the loop: live (the provider streams it) or replayed (from the journal).

const ABORTED = Symbol('aborted')

/** A turn from the journal: no provider call, no deltas; its message events say `replayed`. */
export function replayTurn(ctx: ExecContext, iteration: number, message: AssistantMessage): TurnOutcome {
  ctx.state.iterationsUsed = iteration
  ctx.tree.iterations++
  emit(ctx, { type: 'turn_start', iteration, iterationBudget: ctx.state.iterationBudget, model: message.model })
  emit(ctx, { type: 'message_start', message, replayed: true })
  emit(ctx, { type: 'message_end', message, replayed: true })
  return { message }
}

/**
 * A turn from the provider; no message when the exec was aborted before the call started.
 * `steered`: steering was taken just before (in 'one' mode nothing more joins this call).
 */
export async function liveTurn(ctx: ExecContext, iteration: number, steered: boolean): Promise<Partial<TurnOutcome>> {
  // prepareTurn runs before the turn opens, and an abort does not wait for it: aborted
  // there, the exec ends with no turn events and no empty assistant message.
  const signal = ctx.control.controller.signal
  // Without live tools or a prepareTurn hook the request is built at once: no promise to race.
  const request = needsPreparing(ctx)
    ? await untilAbort(buildRequest(ctx, iteration), signal, () => ABORTED).catch((thrown: unknown) => {
        if (thrown === ABORTED) return undefined
        throw thrown
      })
    : signal.aborted
      ? undefined
      : requestOf(ctx, ctx.env.model, ctx.env.specs, ctx.state.toolChoice, ctx.state.history)
  if (!request) return {}
  ctx.state.iterationsUsed = iteration
  ctx.tree.iterations++
  emit(ctx, { type: 'turn_start', iteration, iterationBudget: ctx.state.iterationBudget, model: request.model })
  // Steering that arrived while the request was prepared (or right after exec() returned)
  // still goes into this model call ('one' mode takes one message per call).
  if (!steered || ctx.control.steering.mode === 'all') {
    const taken = takeMessages(ctx, iteration, () => ctx.control.steering.drain())
    if (taken.saved) await taken.saved
    for (const message of taken.messages) {
      append(ctx, message)
      if (request.messages !== ctx.state.history) request.messages = [...request.messages, message]
    }
  }
  return streamTurn(ctx, request)
}

/** Adds a message to the history with its message events (`replayed` when it came from the journal). */
export function append(ctx: ExecContext, message: Message | UserMessage, replayed = false): void {
  ctx.state.history.push(message)
  if (replayed) {
    emit(ctx, { type: 'message_start', message, replayed: true })
    emit(ctx, { type: 'message_end', message, replayed: true })
    return
  }
  emit(ctx, { type: 'message_start', message })
  emit(ctx, { type: 'message_end', message })
}

async function buildRequest(ctx: ExecContext, iteration: number): Promise<ModelRequest> {
  await refreshLiveTools(ctx)
  let model = ctx.env.model
  let specs = ctx.env.specs
  let toolChoice = ctx.state.toolChoice
  let messages = ctx.state.history
  const prepare = ctx.env.settings.hooks.prepareTurn
  if (prepare) {
    const changes = await callHook('prepareTurn', () =>
      prepare({ iteration, messages: ctx.state.history, tools: ctx.env.specs, toolChoice }),
    )
    if (changes) {
      if (changes.model) model = changes.model
      if (changes.tools) {
        const visible = new Set(changes.tools)
        specs = ctx.env.specs.filter((s) => visible.has(s.name))
      }
      if (changes.toolChoice) toolChoice = changes.toolChoice
      if (changes.messages) messages = changes.messages
    }
  }
  return requestOf(ctx, model, specs, toolChoice, messages)
}

const needsPreparing = (ctx: ExecContext): boolean =>
  ctx.env.settings.hooks.prepareTurn !== undefined || hasLiveTools(ctx)

function requestOf(
  ctx: ExecContext,
  model: string,
  specs: ModelRequest['tools'],
  toolChoice: ModelRequest['toolChoice'],
  messages: Message[],
): ModelRequest {
  const request: ModelRequest = { model, messages, tools: specs }
  if (ctx.env.system !== undefined) request.system = ctx.env.system
  if (toolChoice !== undefined) request.toolChoice = toolChoice
  if (ctx.env.parallelToolCalls !== undefined) request.parallelToolCalls = ctx.env.parallelToolCalls
  if (ctx.env.settings.providerOptions) request.options = ctx.env.settings.providerOptions
  if (ctx.env.settings.maxRetries !== undefined) request.maxRetries = ctx.env.settings.maxRetries
  if (ctx.env.settings.streamIdleTimeoutMs !== undefined)
    request.streamIdleTimeoutMs = ctx.env.settings.streamIdleTimeoutMs
  if (ctx.env.output) request.output = ctx.env.output.spec
  return request
}
