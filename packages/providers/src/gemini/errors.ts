import { NestorError } from '@nestor/core'
import { isRetryableStatus } from '../shared/failures.js'
import type { ClassifiedError } from '../shared/retry-stream.js'
import { describeSdkError } from './sdk.js'

/**
 * Classifies a failed Gemini attempt. HTTP errors become `provider_error` with their status:
 * 408/409/429/5xx retry, 400/403 (bad schema, missing thought signature, bad key) do not.
 * Transport failures (fetch failed, a dropped connection) retry; a malformed stream does not.
 * A 429's wait comes from the body's `RetryInfo.retryDelay` ("26s"): Gemini sends no header.
 */
export function classifyGeminiError(error: unknown, provider: string): ClassifiedError {
  if (NestorError.isInstance(error)) return { error }
  const failure = describeSdkError(error)
  switch (failure.kind) {
    case 'http': {
      const classified: ClassifiedError = {
        error: new NestorError(
          'provider_error',
          `Gemini API error ${failure.status}: ${stripPrefix(failure.message)}`,
          {
            provider,
            status: failure.status,
            retryable: isRetryableStatus(failure.status),
          },
        ),
      }
      const retryAfterMs = retryDelayMs(failure.details)
      if (retryAfterMs !== undefined) classified.retryAfterMs = retryAfterMs
      return classified
    }
    case 'transport':
    case 'abort':
      // An abort reaching here was not the caller's (that is handled before classification): it
      // is the idle watchdog or a dropped connection, both worth another attempt.
      return {
        error: new NestorError('provider_error', `Gemini network error: ${stripPrefix(failure.message)}`, {
          provider,
          retryable: true,
        }),
      }
    case 'parse':
      return {
        error: new NestorError('provider_error', `Gemini sent a malformed stream: ${stripPrefix(failure.message)}`, {
          provider,
          retryable: false,
        }),
      }
    default:
      return {
        error: new NestorError('provider_error', `Gemini request failed: ${stripPrefix(failure.message)}`, {
          provider,
          retryable: false,
        }),
      }
  }
}

/** Reads `google.rpc.RetryInfo.retryDelay` (a protobuf Duration string such as "26s" or "0.01s"). */
export function retryDelayMs(details: readonly unknown[]): number | undefined {
  for (const detail of details) {
    if (typeof detail !== 'object' || detail === null) continue
    const record = detail as Record<string, unknown>
    if (typeof record['@type'] !== 'string' || !record['@type'].endsWith('google.rpc.RetryInfo')) continue
    const delay = record.retryDelay
    if (typeof delay === 'string') {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim())
      if (match) return Math.round(Number(match[1]) * 1000)
    } else if (typeof delay === 'object' && delay !== null) {
      // The proto form { seconds, nanos } some clients print.
      const { seconds, nanos } = delay as { seconds?: unknown; nanos?: unknown }
      const s = Number(seconds ?? 0)
      const n = Number(nanos ?? 0)
      if (Number.isFinite(s) && Number.isFinite(n)) return Math.round(s * 1000 + n / 1e6)
    }
  }
  return undefined
}

/** The SDK prefixes every message with "[GoogleGenerativeAI Error]: "; ours says Gemini already. */
function stripPrefix(message: string): string {
  return message.replace(/^\[GoogleGenerativeAI Error\]:\s*/, '')
}
