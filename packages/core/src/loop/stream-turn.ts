import { NestorError, messageOf } from '../contract/errors.js'
import { emit, type ExecContext } from '../exec/context.js'
import { DeltaGuard } from '../events/delta-guard.js'
import { untilAbort } from '../base/abort-watch.js'
import type { AssistantMessage, InjectedPrompt, ModelEvent, ModelRequest, NestorErrorLike } from '../contract/types.js'
import type { MessageDelta } from '../contract/event-types.js'
import { emptyUsage } from '../contract/usage.js'
import { priceTurn } from '../exec/prices.js'

export type TurnOutcome = { message: AssistantMessage; error?: NestorErrorLike }

/**
 * Streams one assistant message from the provider as message_start / message_delta* /
 * message_end events. Always returns a final message: a provider that breaks its contract and
 * throws is turned into an error message here, so the loop never sees a throw. Providers with a
 * `streamTo` fast path deliver events by call instead of through an async iterator.
 */
export async function streamTurn(ctx: ExecContext, request: ModelRequest): Promise<TurnOutcome> {
  let message: AssistantMessage | undefined
  let outcome: TurnOutcome | Promise<TurnOutcome> | undefined
  const names = new Map<string, string>()
  const deltas = new DeltaStream(ctx)
  ctx.env.output?.startMessage()
  /** Handles one provider event; true once the stream's terminal event arrived. */
  // Set when the turn stopped listening (an abort the provider ignored): later events are dropped.
  let gaveUp = false
  const handle = (event: ModelEvent): boolean => {
    if (outcome || gaveUp) return true
    switch (event.type) {
      case 'start':
        // The provider goes on building this object: the event gets the message as it is now.
        message = event.message
        emit(ctx, {
          type: 'message_start',
          message: snapshot(message),
          ...(event.injectedPrompt && { injectedPrompt: injected(event.injectedPrompt) }),
        })
        return false
      case 'text_delta':
        deltas.push('text', event.delta)
        return false
      case 'thinking_delta':
        deltas.push('thinking', event.delta)
        return false
      case 'toolcall_start':
        // Redacted once here: every later delta of this call carries the name unchecked.
        names.set(event.id, ctx.env.redact(event.name))
        deltas.releaseAll()
        emit(ctx, {
          type: 'message_delta',
          delta: { kind: 'toolCall', id: event.id, name: event.name, argumentsDelta: '' },
        })
        return false
      case 'toolcall_delta':
        deltas.push(event.id, event.delta, names.get(event.id) ?? '')
        return false
      case 'toolcall_end':
        return false
      case 'retry':
        emit(ctx, { type: 'retry', attempt: event.attempt, delayMs: event.delayMs, error: event.error })
        return false
      case 'done':
      case 'error': {
        deltas.releaseAll()
        const first = message === undefined
        message = settle(ctx, event.message)
        if (first) emit(ctx, { type: 'message_start', message })
        outcome = finish(ctx, message, event.type === 'error' ? event.error : undefined)
        return true
      }
    }
  }
  const provider = ctx.env.provider
  const signal = ctx.control.controller.signal
  try {
    // Async wrappers: a provider that throws synchronously becomes a rejection like any other.
    const work = provider.streamTo
      ? (async () => provider.streamTo?.(request, signal, handle))()
      : (async () => {
          for await (const event of provider.stream(request, signal)) if (handle(event)) break
        })()
    // An abort settles the turn at once, whether or not the provider honours its signal.
    await untilAbort(work, signal, () => new NestorError('aborted', 'aborted', { provider: provider.name }))
    if (outcome) return await outcome
    throw new NestorError('provider_error', `provider ${provider.name} ended its stream without a final message`, {
      provider: provider.name,
    })
  } catch (thrown) {
    if (outcome) return await outcome
    gaveUp = true
    deltas.releaseAll()
    const aborted = ctx.control.controller.signal.aborted
    // A copy: the provider may still hold (and change) the message it was building.
    const partial: AssistantMessage = message
      ? snapshot(message)
      : {
          role: 'assistant',
          content: [],
          stopReason: 'error',
          usage: emptyUsage(),
          provider: ctx.env.provider.name,
          model: request.model,
        }
    partial.stopReason = aborted ? 'aborted' : 'error'
    partial.errorMessage = aborted ? 'aborted' : messageOf(thrown)
    const error = NestorError.isInstance(thrown)
      ? thrown
      : new NestorError(aborted ? 'aborted' : 'provider_error', partial.errorMessage, {
          provider: ctx.env.provider.name,
          cause: thrown,
        })
    if (!message) emit(ctx, { type: 'message_start', message: partial })
    return finish(ctx, partial, error)
  }
}

/** What message_start says of a prompt the provider injected: its kind, length and text. */
const injected = ({ kind, text }: InjectedPrompt) => ({ kind, length: text.length, text })

/** The final message as the turn reports it, settled before any event carries it. */
function settle(ctx: ExecContext, message: AssistantMessage): AssistantMessage {
  // Abort wins over a failure the provider reported: the user asked to stop.
  if (ctx.control.controller.signal.aborted && message.stopReason === 'error') {
    message.stopReason = 'aborted'
    message.errorMessage ??= 'aborted'
  }
  return message
}

/** A published event is a fixed value: a message still being built is published as a copy. */
function snapshot(message: AssistantMessage): AssistantMessage {
  const copy: AssistantMessage = {
    ...message,
    content: message.content.map((block) =>
      block.type === 'toolCall' ? { ...block, arguments: { ...block.arguments } } : { ...block },
    ),
    usage: { ...message.usage },
  }
  if (message.providerData) copy.providerData = { ...message.providerData }
  return copy
}

/**
 * The turn's final message gets its price, then its message_end, so every event carrying it has
 * the cost: at once when its model was looked up, after the lookup for a model's first turn.
 */
function finish(
  ctx: ExecContext,
  message: AssistantMessage,
  error: NestorErrorLike | undefined,
): TurnOutcome | Promise<TurnOutcome> {
  settle(ctx, message)
  const pricing = priceTurn(ctx.env.host.options, ctx.env.provider, message)
  return pricing ? pricing.then(() => ended(ctx, message, error)) : ended(ctx, message, error)
}

function ended(ctx: ExecContext, message: AssistantMessage, error: NestorErrorLike | undefined): TurnOutcome {
  emit(ctx, { type: 'message_end', message })
  return error ? { message, error } : { message }
}

/**
 * Emits message_delta events. With secrets, each stream goes through a DeltaGuard so a secret
 * split across chunks never appears; a stream's held-back tail is released when another stream
 * starts or the message ends, which keeps the deltas in order.
 */
class DeltaStream {
  private readonly guard: DeltaGuard | undefined
  private current: string | undefined
  private readonly toolNames = new Map<string, string>()

  constructor(private readonly ctx: ExecContext) {
    this.guard = ctx.env.secrets.length ? new DeltaGuard(ctx.env.secrets) : undefined
  }

  /** `stream` is 'text', 'thinking' or a tool call id (with its tool name). */
  push(stream: string, text: string, toolName?: string): void {
    if (!this.guard) return this.send(stream, text, toolName)
    if (this.current !== undefined && this.current !== stream) this.release(this.current)
    this.current = stream
    if (toolName !== undefined) this.toolNames.set(stream, toolName)
    const safe = this.guard.feed(stream, text)
    if (safe) this.send(stream, safe, toolName)
  }

  releaseAll(): void {
    if (!this.guard) return
    for (const stream of this.guard.pending()) this.release(stream)
    this.current = undefined
  }

  private release(stream: string): void {
    const rest = this.guard?.flush(stream)
    if (rest) this.send(stream, rest, this.toolNames.get(stream))
  }

  private send(stream: string, text: string, toolName: string | undefined): void {
    const delta: MessageDelta =
      stream === 'text' || stream === 'thinking'
        ? { kind: stream, text }
        : { kind: 'toolCall', id: stream, name: toolName ?? '', argumentsDelta: text }
    // Guarded: `text` came out of the DeltaGuard (or the exec has no secrets) and a tool call's
    // name was redacted at its toolcall_start.
    emit(this.ctx, { type: 'message_delta', delta }, true)
    // Typed output: the partial value follows the text that streamed, never ahead of it.
    const partial = stream === 'text' ? this.ctx.env.output?.partial(text) : undefined
    if (partial) emit(this.ctx, { type: 'partial_output', partial: partial.partial })
  }
}
