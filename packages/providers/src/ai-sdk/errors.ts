import { NestorError } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import type { ClassifiedError } from '../shared/retry-stream.js'
import { isNetworkFailure, isRetryableStatus, reissue } from '../shared/failures.js'

type ApiCallErrorLike = { statusCode?: number; isRetryable?: boolean; responseHeaders?: Record<string, string> }

/**
 * A failure of one AI SDK attempt → a NestorError. `APICallError` is recognised by shape (its
 * `statusCode`, `isRetryable`, `responseHeaders`), not by class, so the adapter never loads the AI
 * SDK itself. The original error is not attached: it holds request bodies and headers.
 */
export function classifyAiSdkError(error: unknown, provider: string): ClassifiedError {
  if (NestorError.isInstance(error)) {
    return { error: error.provider ? error : reissue(error, { provider }) }
  }
  if (error instanceof Error && error.name === 'AbortError')
    return { error: new NestorError('aborted', 'aborted', { provider }) }
  const api = (typeof error === 'object' && error !== null ? error : {}) as ApiCallErrorLike
  const status = typeof api.statusCode === 'number' ? api.statusCode : undefined
  const network = isNetworkFailure(error)
  const retryable = typeof api.isRetryable === 'boolean' ? api.isRetryable : isRetryableStatus(status) || network
  const extra: { status?: number; provider: string; retryable: boolean } = { provider, retryable }
  if (status !== undefined) extra.status = status
  const classified: ClassifiedError = { error: new NestorError('provider_error', messageOf(error), extra) }
  const retryAfterMs = retryAfter(api.responseHeaders)
  if (retryAfterMs !== undefined) classified.retryAfterMs = retryAfterMs
  return classified
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined
  const ms = Number(headers['retry-after-ms'])
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms)) return ms
  const seconds = Number(headers['retry-after'])
  return headers['retry-after'] !== undefined && Number.isFinite(seconds) ? seconds * 1000 : undefined
}
