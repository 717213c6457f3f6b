import type { IncomingMessage, ServerResponse } from 'node:http'
import { DEFAULT_MAX_BODY_BYTES, errorResponse } from './http-errors.js'
import { SSE_HEADERS, toSSE, type SSEOptions } from './sse.js'
import type { RunSource } from './source.js'

export type NodePipeOptions = {
  /**
   * A client that takes no bytes for this long while a write waits for 'drain' is cut off (the
   * response is destroyed, the reading stops). Default 60000; 0 waits forever.
   */
  drainTimeoutMs?: number
}

/**
 * Streams a run as SSE into a `node:http` (or Express) response. Writes wait for 'drain', so a
 * slow client slows the reading, never grows a buffer; one that stalls past `drainTimeoutMs` is
 * cut off. When the client goes away the stream stops reading; the run goes on unless
 * `abortOnCancel` is set. Resolves when the response is done.
 */
export function pipeToNodeResponse(
  run: RunSource,
  res: ServerResponse,
  options: SSEOptions & NodePipeOptions = {},
): Promise<void> {
  if (!res.headersSent) res.writeHead(200, SSE_HEADERS)
  return pipeBody(toSSE(run, options), res, options.drainTimeoutMs)
}

/** Writes a web Response (status, headers, streamed body) to a node response. */
export async function sendWebResponse(
  response: Response,
  res: ServerResponse,
  options: NodePipeOptions = {},
): Promise<void> {
  if (!res.headersSent) res.writeHead(response.status, nodeHeaders(response.headers))
  if (!response.body) {
    res.end()
    return
  }
  await pipeBody(response.body, res, options.drainTimeoutMs)
}

/** Headers for writeHead; several Set-Cookie headers stay several (joined they would be one broken cookie). */
function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.fromEntries(headers)
  const cookies = headers.getSetCookie()
  if (cookies.length > 1) out['set-cookie'] = cookies
  return out
}

async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse, drainTimeoutMs = 60_000): Promise<void> {
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
      if (!res.write(value) && !(await drained(res, drainTimeoutMs))) {
        // Stalled: destroying the response fires 'close', which cancels the reading.
        res.destroy()
        break
      }
    }
  } catch {
    // The body failed: end the response with what was sent.
  } finally {
    if (res.destroyed && !gone) onClose()
    res.off('close', onClose)
    if (!gone) res.end()
  }
}

/** True at 'drain' (or 'close'), false when the client took nothing for `timeoutMs`. */
function drained(res: ServerResponse, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const done = (ok: boolean) => {
      clearTimeout(timer)
      res.off('drain', onDrain)
      res.off('close', onDrain)
      resolve(ok)
    }
    const onDrain = () => done(true)
    res.on('drain', onDrain)
    res.on('close', onDrain)
    if (timeoutMs > 0) timer = setTimeout(() => done(false), timeoutMs)
  })
}

/**
 * A node `(req, res)` listener from a fetch-style handler `(request) => Response | undefined`
 * (undefined: 404). Request bodies are read up to `maxBodyBytes` (default 1 MiB; larger → 413
 * without reading the rest). A Host header that is not a host answers 400; a handler that throws
 * answers 500 without its message (which may hold internals).
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response | undefined> | Response | undefined,
  options: { maxBodyBytes?: number } & NodePipeOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  return (req, res) => {
    void (async () => {
      const url = requestUrl(req)
      if (!url) return sendWebResponse(errorResponse(400, 'bad_request', 'the Host header or path is not valid'), res)
      const body = await readBody(req, max)
      if (!body) {
        res.setHeader('connection', 'close')
        return sendWebResponse(errorResponse(413, 'too_large', `request body over ${max} bytes`), res)
      }
      const controller = new AbortController()
      res.on('close', () => controller.abort())
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') headers.set(name, value)
        else if (Array.isArray(value)) for (const v of value) headers.append(name, v)
      const method = req.method ?? 'GET'
      const init: RequestInit = { method, headers, signal: controller.signal }
      if (method !== 'GET' && method !== 'HEAD' && body.length > 0) init.body = body
      const response =
        (await handler(new Request(url, init))) ??
        errorResponse(404, 'not_found', `no route for ${method} ${url.pathname}`)
      await sendWebResponse(response, res, options)
    })().catch(() => {
      if (res.headersSent) return void res.destroy()
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { code: 'internal', message: 'the server failed to answer this request' } }))
    })
  }
}

/** The request's URL, or undefined when its Host header (or path) does not make one. */
function requestUrl(req: IncomingMessage): URL | undefined {
  const host = req.headers.host ?? 'localhost'
  // Only a host name or address with an optional port: no userinfo, path or spaces from a client.
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) return undefined
  try {
    return new URL(req.url ?? '/', `http://${host}`)
  } catch {
    return undefined
  }
}

/** The body up to `max` bytes; undefined past it (the rest is left unread and the socket closed). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > max) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= max) return void chunks.push(chunk)
      // Paused, not destroyed: the 413 still reaches the client before the socket closes.
      stop()
      req.pause()
      resolve(undefined)
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks))
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
}
