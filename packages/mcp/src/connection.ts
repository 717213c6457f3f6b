import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { NestorError } from '@nestor/core'
import { watchSecrets } from './auth-secrets.js'
import { CallsInFlight } from './elicitation-answer.js'
import type { McpHttpServer, McpServerSpec, McpStdioServer } from './types.js'

export const isClient = (spec: McpServerSpec): spec is Client =>
  typeof (spec as Partial<Client>).callTool === 'function' && typeof (spec as Partial<Client>).listTools === 'function'

/**
 * How errors name the server: the command and its first argument (later ones may be tokens), or
 * the URL's scheme, host and port only: credentials, path and query may hold secrets
 * (`/mcp/sk-live-…/sse`).
 */
export function serverLabel(spec: McpServerSpec): string {
  if (isClient(spec)) return spec.getServerVersion()?.name ?? 'MCP client'
  if ('command' in spec)
    return [spec.command, ...(spec.args ?? []).slice(0, 1)].map((a) => a.split(/[\\/]/).pop()).join(' ')
  const url = new URL(String(spec.url))
  return `${url.protocol}//${url.host}`
}

/** The parts of a server URL that must not appear in a message: the whole URL, its path and query. */
function secretParts(spec: McpServerSpec): string[] {
  if (isClient(spec) || 'command' in spec) return []
  const url = new URL(String(spec.url))
  return [url.href, String(spec.url), url.pathname + url.search, url.username, url.password].filter((p) => p.length > 1)
}

/**
 * One MCP session, opened again on demand after the server went away (stdio: a new process).
 * A Client passed in by the caller is used as is and never reopened: it is theirs.
 */
export class McpConnection {
  readonly label: string
  /** The calls waiting for a result: the server's elicitations are asked through theirs. */
  readonly calls = new CallsInFlight()
  readonly #secrets: string[]
  /** Tokens and client secrets the authProvider handed out or was given (see watchSecrets). */
  readonly #authSecrets = new Set<string>()
  readonly #authProvider: OAuthClientProvider | undefined
  #client: Client | undefined
  #opening: Promise<Client> | undefined
  #closed = false
  #opened = 0

  constructor(
    private readonly spec: McpServerSpec,
    private readonly info: { name: string; version: string },
    /** Runs for every session opened; `reopened` is true after the first. */
    private readonly onOpen: (client: Client, reopened: boolean) => void,
    authProvider?: OAuthClientProvider,
  ) {
    this.#authProvider = authProvider && watchSecrets(authProvider, this.#authSecrets)
    this.label = serverLabel(spec)
    this.#secrets = secretParts(spec).sort((a, b) => b.length - a.length)
  }

  /** A message from the SDK or the network with the server URL's secret parts replaced. */
  scrub(message: string): string {
    let text = message
    for (const part of [...this.#authSecrets, ...this.#secrets]) text = text.split(part).join('…')
    return text
  }

  get client(): Client | undefined {
    return isClient(this.spec) ? this.spec : this.#client
  }

  async get(): Promise<Client> {
    if (this.#closed) throw new NestorError('invalid_state', `the tools of MCP server ${this.label} were closed`)
    if (isClient(this.spec)) {
      if (!this.spec.transport) throw new Error(`the MCP client of ${this.label} is not connected: connect it again`)
      if (this.#opened === 0) this.#track(this.spec)
      return this.spec
    }
    if (this.#client) return this.#client
    this.#opening ??= this.#open().finally(() => (this.#opening = undefined))
    return this.#opening
  }

  /** Drops a session this connection opened (not a Client passed in); true if it did. */
  discard(client: Client): boolean {
    if (isClient(this.spec) || this.#client !== client) return false
    this.#client = undefined
    client.close().catch(() => undefined)
    return true
  }

  async close(): Promise<void> {
    this.#closed = true
    const client = this.#client ?? (await this.#opening?.catch(() => undefined))
    this.#client = undefined
    if (client && !isClient(this.spec)) await client.close()
  }

  async #open(): Promise<Client> {
    const spec = this.spec as McpStdioServer | McpHttpServer
    const client = 'command' in spec ? await this.#connect(stdioTransport(spec)) : await this.#connectHttp(spec)
    if (this.#closed) {
      await client.close()
      throw new NestorError('invalid_state', `the tools of MCP server ${this.label} were closed`)
    }
    client.onclose = () => {
      if (this.#client === client) this.#client = undefined
    }
    this.#client = client
    this.#track(client)
    return client
  }

  #track(client: Client): void {
    this.onOpen(client, this.#opened++ > 0)
  }

  async #connect(
    transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport,
  ): Promise<Client> {
    // Form elicitation, with the SDK filling the defaults of fields the answer left out (SEP-1034).
    const client = new Client(this.info, { capabilities: { elicitation: { form: { applyDefaults: true } } } })
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      this.calls.answer(request.params, extra.signal, extra.requestId),
    )
    try {
      await client.connect(transport)
      this.calls.watch(transport)
      return client
    } catch (error) {
      // A failed handshake may leave a child process running: stop it before reporting.
      await client.close().catch(() => undefined)
      throw error
    }
  }

  async #connectHttp(spec: McpHttpServer): Promise<Client> {
    const url = new URL(String(spec.url))
    const requestInit: RequestInit = spec.headers ? { headers: spec.headers } : {}
    const options = { requestInit, ...(this.#authProvider && { authProvider: this.#authProvider }) }
    try {
      return await this.#connect(new StreamableHTTPClientTransport(url, options))
    } catch (streamableError) {
      // A server that wants OAuth speaks Streamable HTTP: its refusal is the answer.
      if (streamableError instanceof UnauthorizedError) throw streamableError
      // Servers from before Streamable HTTP speak HTTP+SSE on the same URL.
      try {
        return await this.#connect(new SSEClientTransport(url, options))
      } catch {
        throw streamableError
      }
    }
  }
}

function stdioTransport(spec: McpStdioServer): StdioClientTransport {
  return new StdioClientTransport({
    command: spec.command,
    ...(spec.args && { args: spec.args }),
    ...(spec.env && { env: spec.env }),
    ...(spec.cwd && { cwd: spec.cwd }),
    stderr: spec.stderr ?? 'inherit',
  })
}
