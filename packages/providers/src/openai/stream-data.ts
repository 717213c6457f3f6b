import { parseSseJson, sseBody, type SseVerdict } from '../shared/sse-body.js'
import type { SseMessage } from '../shared/sse-splitter.js'
import { loadedOpenAI } from './sdk.js'

/**
 * The JSON payloads of a streaming OpenAI response (Chat Completions chunks or Responses events),
 * read as the SDK's own stream reads them: `[DONE]` ends the data, a payload carrying `error`
 * throws the SDK's `APIError`, one that will not parse throws `SyntaxError` (and is logged).
 * Assistants API events (`thread.*`) carry errors differently; no adapter asks for them.
 */
export function openAIStreamData<Payload>(
  response: Response,
  signal: AbortSignal,
  logError: (message: string) => void,
): AsyncGenerator<Payload> {
  const read = (message: SseMessage): SseVerdict<Payload> => {
    if (message.data.startsWith('[DONE]')) return 'end'
    if (message.event?.startsWith('thread.')) return 'skip'
    const data = parseSseJson(message.data, logError) as (Payload & { error?: unknown }) | null
    if (data && data.error) throw apiError(data.error, response.headers)
    return { payload: data as Payload }
  }
  return sseBody(response, signal, read)
}

function apiError(error: unknown, headers: Headers): Error {
  const OpenAI = loadedOpenAI()
  if (!OpenAI) throw new Error('unreachable: a response came from an SDK that is not loaded')
  return new OpenAI.APIError(undefined, error as object, undefined, headers)
}
