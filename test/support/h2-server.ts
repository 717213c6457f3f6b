import { createServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2'
import type { AddressInfo } from 'node:net'
import type { CapturedRequest, WireResponse } from './wire-server.js'

export type H2Server = {
  url: string
  port: number
  requests: CapturedRequest[]
  enqueue(...responses: WireResponse[]): void
  /** Answers when the queue is empty (404 if none). */
  fallback?: (request: CapturedRequest) => WireResponse
  close(): Promise<void>
}

/**
 * A cleartext HTTP/2 server on 127.0.0.1: the Bedrock runtime client sends ConverseStream over
 * HTTP/2 (its default handler), so the loopback server must speak it. Responses are the same
 * scripted shapes as the HTTP/1 wire server, written in `chunkSize` pieces.
 */
export async function startH2Server(): Promise<H2Server> {
  const queue: WireResponse[] = []
  const requests: CapturedRequest[] = []
  const server: Http2Server = createServer(async (req: Http2ServerRequest, res: Http2ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    let json: unknown
    try {
      json = body ? JSON.parse(body) : undefined
    } catch {
      json = undefined
    }
    const headers = { ...req.headers, host: String(req.headers[':authority'] ?? req.headers.host ?? '') }
    const captured: CapturedRequest = { method: req.method, url: req.url, headers, body, json }
    requests.push(captured)
    const response = queue.shift() ??
      h2.fallback?.(captured) ?? {
        status: 404,
        headers: { 'content-type': 'application/json' },
        body: '{"message":"no scripted response"}',
      }
    res.writeHead(response.status ?? 200, response.headers ?? {})
    const bytes = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body, 'utf8')
    const size = response.chunkSize ?? 37
    for (let offset = 0; offset < bytes.length; offset += size) {
      if (response.destroyAfterBytes !== undefined && offset >= response.destroyAfterBytes) {
        res.stream.close(2)
        return
      }
      if (response.stallAfterBytes !== undefined && offset >= response.stallAfterBytes) return
      res.write(bytes.subarray(offset, offset + size))
      if (response.delayMs) await new Promise((r) => setTimeout(r, response.delayMs))
    }
    res.end()
  })
  const sessions = new Set<import('node:http2').ServerHttp2Session>()
  server.on('session', (session) => {
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const h2: H2Server = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy()
        server.close(() => resolve())
      }),
  }
  return h2
}
