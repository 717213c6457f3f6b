import type { ModelEvent, ModelRequest, Provider } from '@nestor/core'
import { pumpWithRetries, streamWithRetries, type RetryStreamOptions } from './retry-stream.js'

/**
 * Both faces of a provider built on `streamWithRetries`: `stream` (the async iterable every
 * consumer can read) and `streamTo` (the loop's fast path). One options function serves both.
 */
export function retryingStreams(
  optionsFor: (request: ModelRequest, signal?: AbortSignal) => RetryStreamOptions,
): Pick<Provider, 'stream'> & Required<Pick<Provider, 'streamTo'>> {
  return {
    stream: (request, signal) => streamWithRetries(optionsFor(request, signal)),
    streamTo: (request, signal, sink: (event: ModelEvent) => void) => pumpWithRetries(optionsFor(request, signal), sink),
  }
}
