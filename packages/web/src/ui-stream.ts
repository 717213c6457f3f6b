import type { AgentEvent } from '@nestor/core'
import type { RunSource } from './source.js'
import { UIChunkMapper, type UIChunk } from './ui-chunks.js'

/** Headers of an AI SDK UI message stream response (what `useChat`'s default transport expects). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
}

/**
 * The run as AI SDK UI message chunks (pulled: one event is read per chunk batch the reader asks
 * for). Feed it to `readUIMessageStream`, or send it with `toUIMessageStreamResponse`.
 */
export function toUIMessageStream(run: RunSource, options: { abortOnCancel?: boolean } = {}): ReadableStream<UIChunk> {
  const mapper = new UIChunkMapper(run.execId)
  let iterator: AsyncIterator<AgentEvent> | undefined
  return new ReadableStream<UIChunk>(
    {
      start(controller) {
        iterator = run[Symbol.asyncIterator]()
        for (const chunk of mapper.start()) controller.enqueue(chunk)
      },
      async pull(controller) {
        // Events that map to no chunk (turn bookkeeping, nested deltas) are skipped in one pull.
        for (;;) {
          let step: IteratorResult<AgentEvent>
          try {
            step = await (iterator as AsyncIterator<AgentEvent>).next()
          } catch (error) {
            controller.enqueue({ type: 'error', errorText: error instanceof Error ? error.message : String(error) })
            controller.close()
            return
          }
          if (step.done) {
            controller.close()
            return
          }
          const chunks = mapper.map(step.value)
          for (const chunk of chunks) controller.enqueue(chunk)
          if (chunks.length) return
        }
      },
      cancel(reason) {
        void iterator?.return?.()
        if (options.abortOnCancel) run.abort?.(reason)
      },
    },
    { highWaterMark: 1 },
  )
}

/** A web Response speaking the UI message stream protocol (SSE `data:` frames, then `[DONE]`). */
export function toUIMessageStreamResponse(
  run: RunSource,
  options: { abortOnCancel?: boolean; headers?: Record<string, string> } = {},
): Response {
  const encoder = new TextEncoder()
  const body = toUIMessageStream(run, options).pipeThrough(
    new TransformStream<UIChunk, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`))
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'))
      },
    }),
  )
  return new Response(body, { status: 200, headers: { ...UI_MESSAGE_STREAM_HEADERS, ...options.headers } })
}
