import type { AgentEvent } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import { framedStream } from './framed-stream.js'
import { safeJson } from './safe-json.js'
import { clientReader, type RunSource } from './source.js'

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
  return `id: ${position}\nevent: ${event.type}\ndata: ${safeJson(event)}\n\n`
}

/**
 * A run as Server-Sent Events. The stream is pulled: an event is read from the run only when the
 * reader wants the next frame, so a slow client holds back reading instead of queueing frames.
 * After the run's last event comes an `end` frame (no id) with the status, then the stream closes;
 * a failure ends it with a `stream_error` frame `{ code, message }` instead.
 */
export function toSSE(run: RunSource, options: SSEOptions = {}): ReadableStream<Uint8Array> {
  let position = run.after ?? 0
  return framedStream<AgentEvent>(() => clientReader(run), {
    first: `retry: ${options.retryMs ?? 1000}\n\n`,
    item: (event) => sseFrame(++position, event),
    end: async () => {
      const result = await run.result
      return `event: end\ndata: ${safeJson({ execId: run.execId, lastEventId: position, ...(result && { status: result.status }) })}\n\n`
    },
    error: (error) => {
      const code = (error as { code?: unknown } | undefined)?.code
      return `event: stream_error\ndata: ${safeJson({ code: typeof code === 'string' ? code : 'error', message: messageOf(error) })}\n\n`
    },
    heartbeat: ': heartbeat\n\n',
    heartbeatMs: options.heartbeatMs ?? 15_000,
    onCancel: (reason) => {
      if (options.abortOnCancel) run.abort?.(reason)
    },
  })
}

/** A web Response streaming the run as SSE; works in any fetch-style server (Hono, Next.js, Deno, Bun). */
export function toResponse(run: RunSource, options: SSEOptions & { headers?: Record<string, string> } = {}): Response {
  return new Response(toSSE(run, options), { status: 200, headers: { ...SSE_HEADERS, ...options.headers } })
}
