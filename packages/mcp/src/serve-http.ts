import { randomUUID } from 'node:crypto'
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { NestorError } from '@nestor/core'
import { hostGuard, option, parseOptions, strictOptions, type HostGuard } from '@nestor/core/integration-kit'
import { DEFAULT_MAX_BODY_BYTES, readBody } from './http-body.js'
import { SessionEventStore } from './http-event-store.js'
import { atNegotiatedVersion, negotiatedVersion } from './http-protocol-version.js'
import { SessionTable, type Session } from './http-sessions.js'

/** A server being served: stdio or HTTP (serve.ts), the same handle. */
export type McpServing = {
  /** The endpoint, for HTTP. */
  url?: URL
  /** Stops serving: every session is closed and the HTTP server no longer listens. */
  close(): Promise<void>
  /** Tells every client that subscribed to `uri` that it changed (`notifications/resources/updated`). */
  resourceUpdated(uri: string): Promise<void>
}

export type HttpTransportOptions = {
  /** 0 picks a free port. */
  port: number
  /**
   * Default 127.0.0.1: only this machine can connect. Any other (0.0.0.0, a LAN address) needs
   * `authorize`, or `serveMcp` throws `invalid_options`.
   */
  host?: string
  /** Default /mcp. */
  path?: string
  /**
   * More `Host` header values to answer (`name` for any port, or `name:port`), e.g. the public
   * name behind a proxy. Always allowed: the bound host, localhost, 127.0.0.1 and [::1] with the
   * served port. Any other Host gets 403.
   */
  allowedHosts?: string[]
  /** More `Origin` values to answer (`https://app.example`). A request without Origin is not checked. */
  allowedOrigins?: string[]
  /**
   * Decides every request after the Host/Origin check (a bearer token, say); false gets 401 with
   * `WWW-Authenticate`. Without it anyone who can reach the port may call the tools.
   */
  authorize?: (request: IncomingMessage) => boolean | Promise<boolean>
  /** The 401's `WWW-Authenticate` value. Default `Bearer`. */
  wwwAuthenticate?: string
  /**
   * Live sessions at most. An initialize past it takes the place of the oldest session no request
   * followed since its initialize, or gets 503 when every session is in use. Default 100.
   */
  maxSessions?: number
  /** A session without a request for this long is closed. Default 10 minutes; Infinity keeps them. */
  sessionIdleMs?: number
  /** Largest request body read; a larger one gets 413 and is not read. Default 4 MiB. */
  maxBodyBytes?: number
}

const httpOptions = strictOptions(() => ({
  http: option.custom<true>('true', (v) => v === true).optional(),
  port: option.nonNegativeInt(),
  host: option.nonEmptyString().optional(),
  path: option.custom<string>('a path starting with /', (v) => typeof v === 'string' && v.startsWith('/')).optional(),
  allowedHosts: option.stringList().optional(),
  allowedOrigins: option.stringList().optional(),
  authorize: option.function<HttpTransportOptions['authorize']>().optional(),
  wwwAuthenticate: option.nonEmptyString().optional(),
  maxSessions: option.positiveInt().optional(),
  sessionIdleMs: option.custom<number>('a number > 0, or Infinity', (v) => typeof v === 'number' && v > 0).optional(),
  maxBodyBytes: option.positiveInt().optional(),
}))

/**
 * Streamable HTTP with sessions: each client that initializes gets its own MCP server instance
 * and transport, so its cancellations and progress stay in its session. The SDK's transport
 * speaks the protocol (JSON-RPC, SSE streams, session ids, protocol versions); this server
 * decides who reaches it and bounds what it reads and keeps.
 */
export async function serveHttp(
  create: () => Server,
  options: HttpTransportOptions,
): Promise<Omit<McpServing, 'resourceUpdated'>> {
  parseOptions(httpOptions, options, 'transport')
  const host = options.host ?? '127.0.0.1'
  // Another interface means other machines: they get in only through a check someone chose.
  if (!isLoopback(host) && !options.authorize) {
    throw new NestorError(
      'invalid_options',
      `invalid option transport.authorize: serving MCP on ${host} reaches beyond this machine, so it needs authorize (authorize: () => true lets anyone in)`,
    )
  }
  const path = options.path ?? '/mcp'
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const sessions = new SessionTable(options.maxSessions ?? 100, options.sessionIdleMs ?? 10 * 60_000)
  let guard: HostGuard = () => 'host'

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = guard(req)
    if (refused) return reply(res, 403, `forbidden: this ${refused === 'host' ? 'Host' : 'Origin'} is not allowed`)
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return reply(res, 404, 'not found')
    if (options.authorize && !(await options.authorize(req))) {
      return reply(res, 401, 'unauthorized', { 'www-authenticate': options.wwwAuthenticate ?? 'Bearer' })
    }
    const sessionId = header(req, 'mcp-session-id')
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId)
      if (!session) return reply(res, 404, 'unknown session')
      return serveSession(session, req, res)
    }
    if (req.method !== 'POST') return reply(res, 400, 'missing session: the first request of a session is initialize')
    // Counted before the body is read: a full server reads nothing more.
    if (!sessions.reserve()) return reply(res, 503, 'too many sessions', { 'retry-after': '5' })
    try {
      await openSession(req, res)
    } finally {
      sessions.release()
    }
  }

  const serveSession = async (session: Session, req: IncomingMessage, res: ServerResponse) => {
    sessions.use(session)
    atNegotiatedVersion(req, session.protocolVersion)
    if (req.method !== 'POST') return session.transport.handleRequest(req, res)
    sessions.track(session, new Promise((resolve) => res.once('close', resolve)))
    const body = await jsonBody(req, res)
    if (body !== NO_BODY) await session.transport.handleRequest(req, res, body)
  }

  const openSession = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await jsonBody(req, res)
    if (body === NO_BODY) return
    if (!isInitializeRequest(body)) return reply(res, 400, 'the first request of a session is initialize')
    const server = create()
    const protocolVersion = negotiatedVersion(body)
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) =>
        sessions.add(id, { server, transport, protocolVersion, busy: 0, timer: undefined, used: false }),
      // The body reaches the transport parsed; this bounds any other read it would make.
      maxRequestBodySize: maxBody,
      // Resumability: every SSE stream opens with a priming event id and a reconnection delay, and a
      // client whose stream broke resumes it with Last-Event-ID from what this session kept.
      eventStore: new SessionEventStore(),
      retryInterval: RECONNECT_AFTER_MS,
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await server.connect(transport)
    await transport.handleRequest(req, res, body)
    // An initialize the transport refused (a bad protocol version…) leaves no session behind.
    if (transport.sessionId === undefined) await server.close()
  }

  /** The parsed body, or NO_BODY once a refusal was sent. */
  const jsonBody = async (req: IncomingMessage, res: ServerResponse): Promise<unknown> => {
    const read = await readBody(req, maxBody)
    if (read.tooLarge) {
      reply(res, 413, `request body too large: at most ${maxBody} bytes`, { connection: 'close' })
      return NO_BODY
    }
    try {
      return JSON.parse(read.text) as unknown
    } catch {
      reply(res, 400, 'parse error: the body is not JSON', {}, -32700)
      return NO_BODY
    }
  }

  const http = createHttpServer((req, res) => {
    handle(req, res).catch(() => {
      // The cause stays here: an error message may name what the caller should not learn.
      if (!res.headersSent) reply(res, 500, 'internal error')
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, host, () => resolve())
  })
  const { port } = http.address() as AddressInfo
  guard = hostGuard(host, port, options)
  return {
    url: new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`),
    async close() {
      await sessions.closeAll()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

const NO_BODY = Symbol('no body')

/** The `retry` a client waits before it reconnects a broken SSE stream. */
const RECONNECT_AFTER_MS = 1000

const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host)

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** Every refusal is a JSON-RPC error body, as the SDK's transport answers its own. */
function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}
