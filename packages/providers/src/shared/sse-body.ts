import { SseSplitter, type SseMessage } from './sse-splitter.js'

/** What an adapter makes of one SSE message: a payload to yield, `'skip'`, or `'end'` of the data. */
export type SseVerdict<Payload> = { payload: Payload } | 'skip' | 'end'

/**
 * The payloads of a streaming HTTP response, read from its raw body with the linear SSE splitter.
 * The adapters' SDKs still send the request and raise HTTP error statuses; only their stream
 * readers are replaced (see sse-splitter.ts for why). `read` decides per message and may throw the
 * SDK's error for an error event. An aborted request ends quietly: the parser reports the abort.
 * After the end of the data the body is read to its close, so the connection goes back to the
 * pool for the next call; a consumer that stops early cancels the body instead.
 */
export async function* sseBody<Payload>(
  response: Response,
  signal: AbortSignal,
  read: (message: SseMessage) => SseVerdict<Payload>,
): AsyncGenerator<Payload> {
  if (!response.body) throw new TypeError('the streaming response has no body')
  const reader = response.body.getReader()
  const splitter = new SseSplitter()
  let closed = false
  let ended = false
  try {
    while (!closed) {
      const chunk = await reader.read()
      closed = chunk.done
      const messages = chunk.done ? splitter.end() : splitter.push(chunk.value)
      for (const message of messages) {
        if (ended) break
        const verdict = read(message)
        if (verdict === 'end') ended = true
        else if (verdict !== 'skip') yield verdict.payload
      }
    }
  } catch (error) {
    if (signal.aborted) return
    throw error
  } finally {
    if (!closed) await reader.cancel().catch(() => {})
  }
}

/** A message's JSON; one that will not parse goes to the provider's logger first, as the SDKs do. */
export function parseSseJson(data: string, logError: (message: string) => void): unknown {
  try {
    return JSON.parse(data) as unknown
  } catch (error) {
    logError(`Could not parse message into JSON: ${data}`)
    throw error
  }
}
