import type { Provider } from '@nestor/core'
import type { ModelEvent, ModelRequest } from '@nestor/core/integration-kit'
import { option } from '@nestor/core/integration-kit'
import type { AssistantBuilder } from './assistant-builder.js'
import { reissue } from './failures.js'
import type { EmitEvent } from './stream-parser.js'
import { pumpWithRetries, streamWithRetries, type RetryStreamOptions } from './retry-stream.js'

/**
 * How long a stream may stay silent (no byte, before or after the headers) when neither the
 * request nor the adapter says: without it a stalled body would wait for undici's 300 s body
 * timeout. Generous enough for a slow first token; `streamIdleTimeoutMs: 0` turns the watch off.
 */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000

/** What an adapter sets once: its name, its retry and idle defaults, its secrets. */
export type RetryDefaults = {
  name: string
  maxRetries?: number
  maxRetryDelayMs?: number
  streamIdleTimeoutMs?: number
  secrets(): string[]
}

/** The retry options every adapter takes; the request's own settings (the runtime's) win. */
export type RetryOptions = {
  /** Nestor's retries of a retryable failure before any content. Default 2; `request.maxRetries` wins. */
  maxRetries?: number
  /** Cap on a server-requested wait (`retry-after`, RetryInfo). Default 30 s. */
  maxRetryDelayMs?: number
  /** A stream silent this long fails as retryable. Default 120 s; `request.streamIdleTimeoutMs` wins. */
  streamIdleTimeoutMs?: number
}

/** The checks of the retry options every adapter takes (`maxRetries`, `maxRetryDelayMs`, `streamIdleTimeoutMs`). */
// A function, not a constant: building option rules loads zod, which importing an adapter must not.
export const retryOptionShape = () => ({
  maxRetries: option.nonNegativeInt().optional(),
  maxRetryDelayMs: option.nonNegative().optional(),
  streamIdleTimeoutMs: option.nonNegative().optional(),
})

/** What an adapter decides per request: how to run one attempt and how to classify its failure. */
export type AttemptPlan = Pick<RetryStreamOptions, 'attempt' | 'classify'>

/** One attempt at a request: sends it and parses the reply into the builder (see StreamParser). */
export type RequestAttempt = (
  request: ModelRequest,
  builder: AssistantBuilder,
  signal: AbortSignal,
  emit: EmitEvent,
) => Promise<void>

/**
 * Plans whose failures after visible content are reported as final (`retryable: false`): a
 * retry would duplicate what the caller already streamed, so the error must not promise one.
 */
export const finalAfterContent =
  (attempt: RequestAttempt, classify: AttemptPlan['classify']) =>
  (request: ModelRequest): AttemptPlan => {
    // The builder of the attempt in flight.
    let current: AssistantBuilder | undefined
    return {
      attempt: (builder, signal, emit) => {
        current = builder
        return attempt(request, builder, signal, emit)
      },
      classify: (error) => {
        const classified = classify(error)
        if (!current?.hasContent || !classified.error.retryable) return classified
        return { error: reissue(classified.error, { retryable: false }) }
      },
    }
  }

/**
 * Both faces of an adapter built on the retry stream: `stream` (the async iterable any consumer
 * can read) and `streamTo` (the loop's fast path). The request's own `maxRetries` and
 * `streamIdleTimeoutMs` (the runtime's settings) win over the adapter's defaults.
 */
export function retryingStreams(
  defaults: RetryDefaults,
  plan: (request: ModelRequest) => AttemptPlan,
): Pick<Provider, 'stream'> & Required<Pick<Provider, 'streamTo'>> {
  const optionsFor = (request: ModelRequest, signal: AbortSignal | undefined): RetryStreamOptions => ({
    provider: defaults.name,
    model: request.model,
    maxRetries: request.maxRetries ?? defaults.maxRetries,
    maxRetryDelayMs: defaults.maxRetryDelayMs,
    idleTimeoutMs: request.streamIdleTimeoutMs ?? defaults.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    signal,
    secrets: defaults.secrets(),
    ...plan(request),
  })
  return {
    stream: (request, signal) => streamWithRetries(optionsFor(request, signal)),
    streamTo: (request, signal, sink: (event: ModelEvent) => void) =>
      pumpWithRetries(optionsFor(request, signal), sink),
  }
}
