import { NestorError } from '@nestor/core'

/** Status codes every provider retries: 408, 409, 429, 5xx (Anthropic's 529 included). */
export const isRetryableStatus = (status: number | undefined): boolean =>
  status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500)

/** Parses `retry-after-ms` / `retry-after` (seconds or an HTTP date) from response headers. */
export function retryAfterFromHeaders(headers: { get(name: string): string | null } | undefined): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Number(ms)
  const value = headers.get('retry-after')
  if (value === null || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return seconds * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

/**
 * A body that dies mid-read surfaces from fetch as a bare TypeError ("terminated") or as a socket
 * error with a code: a network failure, worth a retry, unlike a bug.
 */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const cause = (error as { cause?: unknown }).cause
  const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code
  if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code)) return true
  return error.name === 'TypeError' && /terminated|fetch failed|socket|network/i.test(error.message)
}

/** The same error with some of its fields changed (errors are immutable; nothing else is carried over). */
export function reissue(
  error: NestorError,
  change: { message?: string; retryable?: boolean; provider?: string },
): NestorError {
  const extra: { status?: number; provider?: string; retryable?: boolean } = {}
  if (error.status !== undefined) extra.status = error.status
  const provider = change.provider ?? error.provider
  if (provider !== undefined) extra.provider = provider
  const retryable = change.retryable ?? error.retryable
  if (retryable !== undefined) extra.retryable = retryable
  return new NestorError(error.code, change.message ?? error.message, extra)
}

/** A missing API key is a configuration error, raised before any request and never retried. */
export const missingApiKey = (provider: string, message: string): NestorError =>
  new NestorError('invalid_options', message, { provider, retryable: false })
