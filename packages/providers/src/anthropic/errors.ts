import { NestorError } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import type { ClassifiedError } from '../shared/retry-stream.js'
import { isNetworkFailure, isRetryableStatus, retryAfterFromHeaders } from '../shared/failures.js'
import { loadedAnthropic } from './sdk.js'

/** Error types an in-stream `event: error` (HTTP status unknown) may carry that are worth a retry. */
const retryableStreamTypes = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error'])

/**
 * Any failure of one Anthropic attempt → a NestorError and the server's requested delay.
 * The SDK error is never attached as `cause`: it holds the response body and headers, which can
 * echo credentials; only its (later redacted) message crosses the boundary.
 */
export function classifyAnthropicError(error: unknown, provider: string): ClassifiedError {
  if (NestorError.isInstance(error)) return { error }
  const sdk = loadedAnthropic()
  if (sdk !== undefined && error instanceof sdk.APIUserAbortError)
    return { error: new NestorError('aborted', 'aborted', { provider }) }
  if (sdk !== undefined && error instanceof sdk.APIConnectionError) {
    return {
      error: new NestorError('provider_error', `connection error: ${error.message}`, { provider, retryable: true }),
    }
  }
  if (sdk !== undefined && error instanceof sdk.APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined
    const shouldRetry = error.headers?.get('x-should-retry')
    let retryable =
      status === undefined ? retryableStreamTypes.has(String(error.type ?? '')) : isRetryableStatus(status)
    // The server's own verdict wins, as it does in the SDK's retry loop.
    if (shouldRetry === 'true') retryable = true
    if (shouldRetry === 'false') retryable = false
    const extra: { status?: number; provider: string; retryable: boolean } = { provider, retryable }
    if (status !== undefined) extra.status = status
    const classified: ClassifiedError = { error: new NestorError('provider_error', error.message, extra) }
    const retryAfterMs = retryAfterFromHeaders(error.headers ?? undefined)
    if (retryAfterMs !== undefined) classified.retryAfterMs = retryAfterMs
    return classified
  }
  if (error instanceof SyntaxError) {
    return {
      error: new NestorError('provider_error', `malformed stream event from ${provider}: ${error.message}`, {
        provider,
        retryable: false,
      }),
    }
  }
  // A body that dies mid-read is a network failure; anything else is a bug and is not retried.
  const network = isNetworkFailure(error)
  const message = network ? `connection lost: ${messageOf(error)}` : messageOf(error)
  return { error: new NestorError('provider_error', message, { provider, retryable: network }) }
}
