import type { ModelEvent } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import type { AssistantBuilder } from './assistant-builder.js'
import { PushStream } from './push-stream.js'

/** Where a parser hands each event, synchronously, as soon as it is built. */
export type EmitEvent = (event: ModelEvent) => void

/**
 * The one shape of every adapter's stream parser: it reads one attempt's chunks (SDK events, wire
 * chunks, or another provider's events) into `builder`, hands each event to `emit` as it is built,
 * and resolves after the terminal event. A failure is thrown, to be classified and maybe retried
 * by the retry stream; the partial message stays on the builder. The provider's name is the
 * builder's (`builder.message.provider`).
 */
export type StreamParser<Chunk> = (
  chunks: AsyncIterable<Chunk>,
  builder: AssistantBuilder,
  signal: AbortSignal,
  emit: EmitEvent,
) => Promise<void>

/**
 * A parser's events as an async iterable, for a `Provider.stream` that is not built on the retry
 * stream. A parser that throws ends the stream with the builder's `error` event, so the stream
 * itself never throws.
 */
export function parsedEvents<Chunk>(
  parser: StreamParser<Chunk>,
  chunks: AsyncIterable<Chunk>,
  builder: AssistantBuilder,
  signal: AbortSignal,
): AsyncIterable<ModelEvent> {
  const out = new PushStream<ModelEvent>()
  const emit: EmitEvent = (event) => out.push(event)
  void parser(chunks, builder, signal, emit)
    .catch((error: unknown) => {
      const failure = NestorError.isInstance(error)
        ? error
        : new NestorError('provider_error', messageOf(error), { provider: builder.message.provider, retryable: false })
      emit(builder.fail(failure, signal.aborted ? 'aborted' : 'error'))
    })
    .finally(() => out.end())
  return out
}
