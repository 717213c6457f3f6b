import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted HTTP response. `body` is written in `chunkSize`-byte pieces, `delayMs` apart. */
export type WireResponse = {
  status?: number
  headers?: Record<string, string>
  body: string | Buffer
  chunkSize?: number
  delayMs?: number
  /** Stop writing after this many bytes and keep the connection open (a stalled stream). */
  stallAfterBytes?: number
  /** Destroy the socket after this many bytes (a network failure). */
  destroyAfterBytes?: number
}

export type CapturedRequest = {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
  json: unknown
}

export type WireServer = {
  url: string
  port: number
  requests: CapturedRequest[]
  /** Queue responses, served in order; when the queue is empty `fallback` answers (404 if none). */
  enqueue(...responses: WireResponse[]): void
  fallback?: (request: CapturedRequest) => WireResponse
  close(): Promise<void>
}

/** A real HTTP server on 127.0.0.1 speaking whatever wire bytes a test gives it. */
export async function startWireServer(): Promise<WireServer> {
  const queue: WireResponse[] = []
  const requests: CapturedRequest[] = []
  const sockets = new Set<import('node:net').Socket>()
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    let json: unknown
    try {
      json = body ? JSON.parse(body) : undefined
    } catch {
      json = undefined
    }
    const captured: CapturedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
      json,
    }
    requests.push(captured)
    const response = queue.shift() ??
      wire.fallback?.(captured) ?? { status: 404, body: '{"error":{"message":"no scripted response"}}' }
    await write(res, response)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const wire: WireServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  return wire
}

async function write(res: ServerResponse, response: WireResponse): Promise<void> {
  const bytes = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body, 'utf8')
  res.writeHead(response.status ?? 200, { 'content-type': 'text/event-stream; charset=utf-8', ...response.headers })
  const size = response.chunkSize ?? 37
  for (let offset = 0; offset < bytes.length; offset += size) {
    if (response.destroyAfterBytes !== undefined && offset >= response.destroyAfterBytes) {
      res.socket?.destroy()
      return
    }
    if (response.stallAfterBytes !== undefined && offset >= response.stallAfterBytes) return
    res.write(bytes.subarray(offset, offset + size))
    if (response.delayMs) await new Promise((r) => setTimeout(r, response.delayMs))
  }
  res.end()
}

/** Frames SSE events: `data:` lines (and `event:` lines when a name is given), blank-line separated. */
export function sse(events: ({ event?: string; data: unknown } | string)[], eol = '\n'): string {
  return events
    .map((e) => {
      if (typeof e === 'string') return `data: ${e}${eol}${eol}`
      const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data)
      return `${e.event ? `event: ${e.event}${eol}` : ''}data: ${data}${eol}${eol}`
    })
    .join('')
}
