import { randomUUID } from 'node:crypto'
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import type { McpServing } from './serve.js'

export type HttpTransportOptions = {
  /** 0 picks a free port. */
  port: number
  /** Default 127.0.0.1: only this machine can connect unless you choose otherwise. */
  host?: string
  /** Default /mcp. */
  path?: string
}

/**
 * Streamable HTTP with sessions: each client that initializes gets its own MCP server instance
 * and transport, so its cancellations and progress stay in its session.
 */
export async function serveHttp(create: () => Server, options: HttpTransportOptions): Promise<McpServing> {
  const path = options.path ?? '/mcp'
  const sessions = new Map<string, { server: Server; transport: StreamableHTTPServerTransport }>()

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return reply(res, 404, 'not found')
    const sessionId = header(req, 'mcp-session-id')
    const existing = sessionId ? sessions.get(sessionId) : undefined
    if (existing) return existing.transport.handleRequest(req, res)
    if (req.method !== 'POST' || sessionId) return reply(res, sessionId ? 404 : 400, 'unknown or missing session')
    const body = await readJson(req)
    if (!isInitializeRequest(body)) return reply(res, 400, 'the first request of a session is initialize')
    const server = create()
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await server.connect(transport)
    await transport.handleRequest(req, res, body)
  }

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, error instanceof Error ? error.message : 'internal error')
      else res.end()
    })
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, host, () => resolve())
  })
  const { port } = http.address() as AddressInfo
  return {
    url: new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`),
    async close() {
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => undefined)))
      sessions.clear()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    return undefined
  }
}
