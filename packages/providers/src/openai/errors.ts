import { NestorError } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import { loadedOpenAI } from './sdk.js'
import { isRetryableStatus, retryAfterFromHeaders } from '../shared/failures.js'
import type { ClassifiedError } from '../shared/retry-stream.js'

/**
 * Classifies anything an OpenAI attempt threw. HTTP errors retry on 408/409/429/5xx, except a 429
 * `insufficient_quota` (billing, not load: a retry cannot succeed); the server's `x-should-retry`
 * wins when present. Network failures retry. Errors inside a 200 stream (status undefined) and
 * unparseable streams do not. The SDK error is not kept as `cause`: its text can echo the key.
 */
export function classifyOpenAIError(error: unknown, provider: string): ClassifiedError {
  if (NestorError.isInstance(error)) return { error }
  const OpenAI = loadedOpenAI()
  if (OpenAI !== undefined && error instanceof OpenAI.APIConnectionError) {
    // Timeouts and connection failures (APIConnectionTimeoutError is a subclass).
    return {
      error: new NestorError('provider_error', `network error: ${messageOf(error)}`, { provider, retryable: true }),
    }
  }
  if (OpenAI !== undefined && error instanceof OpenAI.APIUserAbortError) {
    return { error: new NestorError('aborted', 'aborted', { provider }) }
  }
  if (OpenAI !== undefined && error instanceof OpenAI.APIError) {
    const status = error.status
    const code = typeof error.code === 'string' ? error.code : undefined
    const shouldRetry = error.headers?.get('x-should-retry')
    let retryable = status !== undefined && isRetryableStatus(status) && code !== 'insufficient_quota'
    if (status !== undefined && shouldRetry === 'true') retryable = true
    if (shouldRetry === 'false') retryable = false
    const extra: { status?: number; provider: string; retryable: boolean } = { provider, retryable }
    if (status !== undefined) extra.status = status
    const message = status === undefined ? `stream error: ${error.message}` : error.message
    const classified: ClassifiedError = { error: new NestorError('provider_error', message, extra) }
    const retryAfterMs = retryAfterFromHeaders(error.headers)
    if (retryAfterMs !== undefined) classified.retryAfterMs = retryAfterMs
    return classified
  }
  if (error instanceof SyntaxError) {
    return {
      error: new NestorError('provider_error', `malformed stream: ${error.message}`, { provider, retryable: false }),
    }
  }
  // A body cut off mid-stream surfaces as a fetch TypeError ("terminated"): a network failure.
  return {
    error: new NestorError('provider_error', `network error: ${messageOf(error)}`, { provider, retryable: true }),
  }
}
