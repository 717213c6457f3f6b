import type Anthropic from '@anthropic-ai/sdk'
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared'
import { parseSseJson, sseBody, type SseVerdict } from '../shared/sse-body.js'
import type { SseMessage } from '../shared/sse-splitter.js'
import { loadedAnthropic } from './sdk.js'

/** The Messages API's raw stream events; the SDK's reader skips any other event name too. */
const MESSAGE_EVENTS = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
])

/**
 * The raw events of a streaming Messages response, read as the SDK's own stream reads them:
 * `ping` and unknown events are skipped, `event: error` throws the SDK's `APIError` with the
 * error's type (the retry classification reads it), a payload that will not parse throws
 * `SyntaxError` (and is logged).
 */
export function anthropicStreamEvents(
  response: Response,
  signal: AbortSignal,
  logError: (message: string) => void,
): AsyncGenerator<Anthropic.RawMessageStreamEvent> {
  const read = (message: SseMessage): SseVerdict<Anthropic.RawMessageStreamEvent> => {
    if (message.event === 'error') throw streamError(message.data, response.headers)
    if (message.event === null || !MESSAGE_EVENTS.has(message.event)) return 'skip'
    return { payload: parseSseJson(message.data, logError) as Anthropic.RawMessageStreamEvent }
  }
  return sseBody(response, signal, read)
}

function streamError(data: string, headers: Headers): Error {
  const sdk = loadedAnthropic()
  if (!sdk) throw new Error('unreachable: a response came from an SDK that is not loaded')
  let body: { error?: { type?: string } } | string = data
  try {
    body = JSON.parse(data) as { error?: { type?: string } }
  } catch {
    // Not JSON: the SDK keeps the text as the error body.
  }
  // The type as the server wrote it, known to the SDK or not: the classification reads it.
  const type = typeof body === 'object' ? ((body?.error?.type ?? null) as ErrorType | null) : null
  return new sdk.APIError(undefined, body as object, undefined, headers, type)
}
