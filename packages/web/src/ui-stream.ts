import type { AgentEvent } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import { framedStream } from './framed-stream.js'
import { safeJson } from './safe-json.js'
import { clientReader, type RunSource } from './source.js'
import { UIChunkMapper, type UIChunk } from './ui-chunks.js'

/** Headers of an AI SDK UI message stream response (what `useChat`'s default transport expects). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
}

export type UIStreamOptions = {
  /** Abort the run when the reader cancels (the client went away). Default false: the run goes on. */
  abortOnCancel?: boolean
  /** A `: heartbeat` SSE comment this often while nothing flows (the AI SDK's parser skips it). Default 15000; 0 turns it off. */
  heartbeatMs?: number
  headers?: Record<string, string>
}

/**
 * The run as AI SDK UI message chunks (pulled: one event is read per chunk batch the reader asks
 * for). Feed it to `readUIMessageStream`, or send it with `toUIMessageStreamResponse`. A failure
 * while reading ends the stream with an `error` chunk and returns the run's iterator.
 */
export function toUIMessageStream(run: RunSource, options: { abortOnCancel?: boolean } = {}): ReadableStream<UIChunk> {
  const mapper = new UIChunkMapper(run.execId)
  let iterator: AsyncIterator<AgentEvent> | undefined
  return new ReadableStream<UIChunk>(
    {
      start(controller) {
        iterator = clientReader(run)
        for (const chunk of mapper.start()) controller.enqueue(chunk)
      },
      async pull(controller) {
        const events = iterator as AsyncIterator<AgentEvent>
        try {
          // Events that map to no chunk (turn bookkeeping, nested deltas) are skipped in one pull.
          for (;;) {
            const step = await events.next()
            if (step.done) return controller.close()
            const chunks = mapper.map(step.value)
            for (const chunk of chunks) controller.enqueue(chunk)
            if (chunks.length) return
          }
        } catch (error) {
          void Promise.resolve(events.return?.()).catch(() => {})
          controller.enqueue({ type: 'error', errorText: messageOf(error) })
          controller.close()
        }
      },
      cancel(reason) {
        void Promise.resolve(iterator?.return?.()).catch(() => {})
        if (options.abortOnCancel) run.abort?.(reason)
      },
    },
    { highWaterMark: 1 },
  )
}

/**
 * A web Response speaking the UI message stream protocol (SSE `data:` frames, then `[DONE]`),
 * with heartbeat comments so a proxy keeps a long approval wait open.
 */
export function toUIMessageStreamResponse(run: RunSource, options: UIStreamOptions = {}): Response {
  const chunks = toUIMessageStream(run, options.abortOnCancel ? { abortOnCancel: true } : {})
  const body = framedStream<UIChunk>(() => readerIterator(chunks.getReader()), {
    item: (chunk) => `data: ${safeJson(chunk)}\n\n`,
    end: () => 'data: [DONE]\n\n',
    error: (error) => `data: ${safeJson({ type: 'error', errorText: messageOf(error) })}\n\ndata: [DONE]\n\n`,
    heartbeat: ': heartbeat\n\n',
    heartbeatMs: options.heartbeatMs ?? 15_000,
  })
  return new Response(body, { status: 200, headers: { ...UI_MESSAGE_STREAM_HEADERS, ...options.headers } })
}

/** A stream reader as an iterator whose `return` cancels the stream (and so returns the run's iterator). */
function readerIterator<T>(reader: ReadableStreamDefaultReader<T>): AsyncIterator<T> {
  return {
    next: () => reader.read() as Promise<IteratorResult<T>>,
    return: async () => {
      await reader.cancel()
      return { value: undefined, done: true }
    },
  }
}
