import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import { expect } from 'vitest'

/** The last state of the message readUIMessageStream (the real `ai` package) builds; no errors on the way. */
export async function finalMessage(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let last: UIMessage | undefined
  const errors: unknown[] = []
  for await (const message of readUIMessageStream({ stream, onError: (e) => errors.push(e), terminateOnError: true }))
    last = message
  expect(errors).toEqual([])
  return last as UIMessage
}
