import { SseSplitter } from '../shared/sse-splitter.js'
import { loadedOpenAI } from './sdk.js'

/**
 * The JSON payloads of a streaming OpenAI response (Chat Completions chunks or Responses events),
 * read from the raw HTTP body. The SDK still sends the request and turns an HTTP error status into
 * its `APIError`; this replaces only its stream reader, whose cost grows with the square of each
 * network read (see shared/sse-splitter.ts), and does what that reader does: `[DONE]` ends the
 * data, a payload carrying `error` throws the SDK's `APIError`, an unparseable one is logged and throws
 * `SyntaxError`, and an aborted request ends quietly (the parser then reports the abort). After
 * `[DONE]` the body is read to its end, so the connection goes back to the pool for the next call.
 */
export async function* openAIStreamData<Payload>(
  response: Response,
  signal: AbortSignal,
  logError: (message: string) => void,
): AsyncGenerator<Payload> {
  if (!response.body) throw new TypeError('the streaming response has no body')
  const reader = response.body.getReader()
  const splitter = new SseSplitter()
  let finished = false
  let done = false
  try {
    while (!finished) {
      const read = await reader.read()
      finished = read.done
      const messages = read.done ? splitter.end() : splitter.push(read.value)
      for (const message of messages) {
        if (done) break
        if (message.data.startsWith('[DONE]')) done = true
        // Assistants API events (`thread.*`) carry their errors differently; no adapter asks for them.
        else if (!message.event?.startsWith('thread.')) {
          const data = parse(message.data, logError)
          if (data && data.error) throw apiError(data.error, response.headers)
          yield data as Awaited<Payload>
        }
      }
    }
  } catch (error) {
    if (signal.aborted) return
    throw error
  } finally {
    if (!finished) await reader.cancel().catch(() => {})
  }
}

/** As the SDK did: the payload that would not parse goes to the provider's logger (redacted there). */
function parse(data: string, logError: (message: string) => void): { error?: unknown } | null {
  try {
    return JSON.parse(data) as { error?: unknown } | null
  } catch (error) {
    logError(`Could not parse message into JSON: ${data}`)
    throw error
  }
}

function apiError(error: unknown, headers: Headers): Error {
  const OpenAI = loadedOpenAI()
  if (!OpenAI) throw new Error('unreachable: a response came from an SDK that is not loaded')
  return new OpenAI.APIError(undefined, error as object, undefined, headers)
}
