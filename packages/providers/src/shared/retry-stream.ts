import type { ModelEvent } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import { messageOf, redactString, sleep } from '@nestor/core/integration-kit'
import { AssistantBuilder } from './assistant-builder.js'
import { reissue } from './failures.js'
import { PushStream } from './push-stream.js'

/** A provider failure, classified: whether to retry, and how long the server asked us to wait. */
export type ClassifiedError = { error: NestorError; retryAfterMs?: number }

export type RetryStreamOptions = {
  provider: string
  model: string
  /** Attempts after the first. Default 2. */
  maxRetries?: number
  /** Cap on a server-requested wait (retry-after), so a header cannot stall the loop for an hour. */
  maxRetryDelayMs?: number
  /** Base for exponential backoff. Default 500 ms. */
  baseDelayMs?: number
  /** A stream silent this long is aborted and fails as retryable. */
  idleTimeoutMs?: number
  signal?: AbortSignal
  /** Strings never to appear in an error message (the API key). */
  secrets: string[]
  /**
   * One attempt: pushes its events through `emit` (synchronously, so there is no generator hop
   * per event) and resolves when the stream ended. Throws on failure.
   */
  attempt(builder: AssistantBuilder, signal: AbortSignal, emit: (event: ModelEvent) => void): Promise<void>
  classify(error: unknown): ClassifiedError
}

/**
 * Runs attempts until one completes. Retries only failures that happened before any content was
 * streamed (a retry after partial output would duplicate it). The returned stream always ends
 * with exactly one `done` or `error` event and never throws.
 */
export function streamWithRetries(options: RetryStreamOptions): AsyncIterable<ModelEvent> {
  const out = new PushStream<ModelEvent>()
  void pumpWithRetries(options, (event) => out.push(event)).finally(() => out.end())
  return out
}

/**
 * The same attempts, delivered straight to `sink` (Provider.streamTo): the loop handles each event
 * in the call that produced it, with no queue and no promise per event. Resolves after the
 * terminal event; never rejects.
 */
export async function pumpWithRetries(options: RetryStreamOptions, sink: (event: ModelEvent) => void): Promise<void> {
  const out = { push: sink }
  const maxRetries = options.maxRetries ?? 2
  const baseDelay = options.baseDelayMs ?? 500
  const maxDelay = options.maxRetryDelayMs ?? 30_000
  let started = false
  const fail = (builder: AssistantBuilder, error: NestorError, stopReason: 'error' | 'aborted') => {
    if (!started) out.push(builder.start())
    out.push(builder.fail(error, stopReason))
  }
  const abortedError = () => new NestorError('aborted', 'aborted', { provider: options.provider })
  for (let attempt = 0; ; attempt++) {
    const builder = new AssistantBuilder(options.provider, options.model)
    const controller = new AbortController()
    const onAbort = () => controller.abort(options.signal?.reason)
    options.signal?.addEventListener('abort', onAbort, { once: true })
    if (options.signal?.aborted) controller.abort(options.signal.reason)
    const idle = options.idleTimeoutMs ? watchIdle(options.idleTimeoutMs, controller) : undefined
    let finished = false
    const emit = (event: ModelEvent) => {
      if (finished) return
      if (idle) idle.last = Date.now()
      if (event.type === 'start') {
        if (started) return
        started = true
      } else if (event.type === 'done' || event.type === 'error') finished = true
      out.push(event)
    }
    try {
      await options.attempt(builder, controller.signal, emit)
      if (finished) return
      // An attempt that ended without a terminal event is a malformed stream.
      throw new NestorError('provider_error', 'stream ended without a final message', {
        provider: options.provider,
        retryable: false,
      })
    } catch (thrown) {
      if (finished) return
      if (options.signal?.aborted) return fail(builder, abortedError(), 'aborted')
      const classified: ClassifiedError = idle?.fired
        ? {
            error: new NestorError('provider_error', `stream idle for ${options.idleTimeoutMs} ms`, {
              provider: options.provider,
              retryable: true,
            }),
          }
        : safeClassify(options, thrown)
      const error = redacted(classified.error, options.secrets)
      if (error.retryable && !builder.hasContent && attempt < maxRetries) {
        const delayMs = backoff(attempt, baseDelay, maxDelay, classified.retryAfterMs)
        out.push({ type: 'retry', attempt: attempt + 1, delayMs, error })
        if (await sleep(delayMs, options.signal)) continue
        return fail(builder, abortedError(), 'aborted')
      }
      return fail(builder, error, 'error')
    } finally {
      idle?.stop()
      options.signal?.removeEventListener('abort', onAbort)
    }
  }
}

function safeClassify(options: RetryStreamOptions, thrown: unknown): ClassifiedError {
  try {
    return options.classify(thrown)
  } catch {
    return {
      error: new NestorError('provider_error', messageOf(thrown), { provider: options.provider, retryable: false }),
    }
  }
}

function redacted(error: NestorError, secrets: string[]): NestorError {
  const message = redactString(error.message, secrets)
  return message === error.message ? error : reissue(error, { message })
}

/** Exponential backoff with full jitter; a server's retry-after wins, capped. */
export function backoff(attempt: number, baseMs: number, maxMs: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, maxMs)
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2)
}

/** One interval per attempt, not a timer per chunk: chunks only stamp `last`. */
function watchIdle(timeoutMs: number, controller: AbortController) {
  const state = {
    last: Date.now(),
    fired: false,
    stop: () => clearInterval(timer),
  }
  const timer = setInterval(
    () => {
      if (Date.now() - state.last >= timeoutMs) {
        state.fired = true
        clearInterval(timer)
        controller.abort(new Error('stream idle'))
      }
    },
    Math.max(5, Math.min(1000, Math.floor(timeoutMs / 4))),
  )
  timer.unref?.()
  return state
}
