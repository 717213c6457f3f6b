import type { IncomingMessage, ServerResponse } from 'node:http'
import { SSE_HEADERS, toSSE, type SSEOptions } from './sse.js'
import type { RunSource } from './source.js'

/**
 * Streams a run as SSE into a `node:http` (or Express) response. Writes wait for 'drain', so a
 * slow client slows the reading, never grows a buffer. When the client goes away the stream stops
 * reading; the run goes on unless `abortOnCancel` is set. Resolves when the response is done.
 */
export function pipeToNodeResponse(run: RunSource, res: ServerResponse, options: SSEOptions = {}): Promise<void> {
  if (!res.headersSent) res.writeHead(200, SSE_HEADERS)
  return pipeBody(toSSE(run, options), res)
}

/** Writes a web Response (status, headers, streamed body) to a node response. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  if (!res.headersSent) res.writeHead(response.status, Object.fromEntries(response.headers))
  if (!response.body) {
    res.end()
    return
  }
  await pipeBody(response.body, res)
}

async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  res.flushHeaders()
  const reader = body.getReader()
  let gone = false
  const onClose = () => {
    if (res.writableFinished) return
    gone = true
    void reader.cancel(new Error('the client disconnected')).catch(() => {})
  }
  res.on('close', onClose)
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done || gone) break
      if (!res.write(value)) await drained(res)
    }
  } catch {
    // The body failed: end the response with what was sent.
  } finally {
    res.off('close', onClose)
    if (!gone) res.end()
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/**
 * A node `(req, res)` listener from a fetch-style handler `(request) => Response | undefined`
 * (undefined: 404). Request bodies are read up to `maxBodyBytes` (default 1 MiB; larger → 413).
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response | undefined> | Response | undefined,
  options: { maxBodyBytes?: number } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const max = options.maxBodyBytes ?? 1 << 20
  return (req, res) => {
    void (async () => {
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length
        if (size > max)
          return sendWebResponse(
            Response.json({ error: { code: 'too_large', message: `request body over ${max} bytes` } }, { status: 413 }),
            res,
          )
        chunks.push(chunk)
      }
      const controller = new AbortController()
      res.on('close', () => controller.abort())
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
      const method = req.method ?? 'GET'
      const init: RequestInit = { method, headers, signal: controller.signal }
      if (method !== 'GET' && method !== 'HEAD' && size > 0) init.body = Buffer.concat(chunks)
      const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, init)
      const response =
        (await handler(request)) ??
        Response.json({ error: { code: 'not_found', message: `no route for ${method} ${req.url}` } }, { status: 404 })
      await sendWebResponse(response, res)
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          error: { code: 'internal', message: error instanceof Error ? error.message : String(error) },
        }),
      )
    })
  }
}
