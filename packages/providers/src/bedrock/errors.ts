import { NestorError } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import type { ClassifiedError } from '../shared/retry-stream.js'
import { isRetryableStatus } from '../shared/failures.js'

/** Converse exceptions worth another attempt, by the name the AWS SDK gives them. */
const retryableNames = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelStreamErrorException',
  'ModelTimeoutException',
  'ModelNotReadyException',
  'TimeoutError',
])

/**
 * Any failure of one Bedrock attempt → a NestorError. AWS SDK errors carry their HTTP status in
 * `$metadata.httpStatusCode` (absent for exceptions that arrive inside the event stream, which are
 * classified by name). The SDK error is never attached as `cause`: its `$response` can echo headers.
 */
export function classifyBedrockError(error: unknown, provider: string): ClassifiedError {
  if (NestorError.isInstance(error)) return { error }
  if (error instanceof Error && error.name === 'AbortError') {
    return { error: new NestorError('aborted', 'aborted', { provider }) }
  }
  const meta = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
  const status = typeof meta?.httpStatusCode === 'number' ? meta.httpStatusCode : undefined
  const name = error instanceof Error ? error.name : ''
  const network = isNetworkFailure(error)
  const retryable =
    retryableNames.has(name) || (status !== undefined && status >= 400 && isRetryableStatus(status)) || network
  const prefix = name && name !== 'Error' ? `${name}: ` : ''
  const message = network ? `connection error: ${messageOf(error)}` : `${prefix}${messageOf(error)}`
  const extra: { status?: number; provider: string; retryable: boolean } = { provider, retryable }
  if (status !== undefined && status >= 400) extra.status = status
  return { error: new NestorError('provider_error', message, extra) }
}

function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const cause = (error as { cause?: unknown }).cause
  const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code
  return typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code)
}
