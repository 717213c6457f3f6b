import type { AgentEvent } from '@nestor/core'
import { messageOf } from '@nestor/core/provider-kit'
import type { RunSource } from './source.js'

export type SSEOptions = {
  /** A `: heartbeat` comment this often while no event flows, so proxies keep the line open. Default 15000; 0 turns it off. */
  heartbeatMs?: number
  /** The reconnection delay sent to EventSource (`retry:`). Default 1000. */
  retryMs?: number
  /** Abort the run when the reader cancels (the client went away). Default false: the run goes on. */
  abortOnCancel?: boolean
}

/** Response headers for an event stream (no caching, no proxy buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
}

/** One frame per event: the id is the event's position in the root run's stream. */
export function sseFrame(position: number, event: AgentEvent): string {
  return `id: ${position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
}

/**
 * A run as Server-Sent Events. The stream is pulled: an event is read from the run only when the
 * reader wants the next frame, so a slow client holds back reading instead of queueing frames.
 * After the run's last event comes an `end` frame (no id) with the status, then the stream closes.
 */
export function toSSE(run: RunSource, options: SSEOptions = {}): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000
  const encoder = new TextEncoder()
  let position = run.after ?? 0
  let iterator: AsyncIterator<AgentEvent> | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  const stop = () => clearInterval(heartbeat)
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`retry: ${options.retryMs ?? 1000}\n\n`))
        iterator = run[Symbol.asyncIterator]()
        if (heartbeatMs > 0) {
          heartbeat = setInterval(() => {
            // Only into an empty queue: heartbeats must not pile up behind a slow reader.
            if ((controller.desiredSize ?? 0) > 0) controller.enqueue(encoder.encode(': heartbeat\n\n'))
          }, heartbeatMs)
          heartbeat.unref?.()
        }
      },
      async pull(controller) {
        let step: IteratorResult<AgentEvent>
        try {
          step = await (iterator as AsyncIterator<AgentEvent>).next()
        } catch (error) {
          stop()
          const code = (error as { code?: unknown }).code
          controller.enqueue(
            encoder.encode(
              `event: stream_error\ndata: ${JSON.stringify({ code: typeof code === 'string' ? code : 'error', message: messageOf(error) })}\n\n`,
            ),
          )
          controller.close()
          return
        }
        if (step.done) {
          stop()
          const result = await run.result
          const end = { execId: run.execId, lastEventId: position, ...(result && { status: result.status }) }
          controller.enqueue(encoder.encode(`event: end\ndata: ${JSON.stringify(end)}\n\n`))
          controller.close()
          return
        }
        position++
        controller.enqueue(encoder.encode(sseFrame(position, step.value)))
      },
      cancel(reason) {
        stop()
        void iterator?.return?.()
        if (options.abortOnCancel) run.abort?.(reason)
      },
    },
    { highWaterMark: 1 },
  )
}

/** A web Response streaming the run as SSE; works in any fetch-style server (Hono, Next.js, Deno, Bun). */
export function toResponse(run: RunSource, options: SSEOptions & { headers?: Record<string, string> } = {}): Response {
  return new Response(toSSE(run, options), { status: 200, headers: { ...SSE_HEADERS, ...options.headers } })
}
