import type { Provider } from '@nestor/core'
import type { ModelEvent, ModelRequest } from '@nestor/core/provider-kit'
import type { AssistantBuilder } from './assistant-builder.js'
import { reissue } from './failures.js'
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

/** What an adapter decides per request: how to run one attempt and how to classify its failure. */
export type AttemptPlan = Pick<RetryStreamOptions, 'attempt' | 'classify'>

/**
 * A plan whose failures after visible content are reported as final (`retryable: false`): a
 * retry would duplicate what the caller already streamed, so the error must not promise one.
 */
export function finalAfterContent(attempt: AttemptPlan['attempt'], classify: AttemptPlan['classify']): AttemptPlan {
  // The builder of the attempt in flight.
  let current: AssistantBuilder | undefined
  return {
    attempt: (builder, signal, emit) => {
      current = builder
      return attempt(builder, signal, emit)
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
