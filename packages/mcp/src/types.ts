import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js'
import type { Tool } from '@nestor/core'
import type { McpLogger } from './warnings.js'

export type { McpToolDefinition }

/** A server started as a child process speaking MCP over stdin/stdout. */
export type McpStdioServer = {
  command: string
  args?: string[]
  /** Added to a minimal default environment (PATH, HOME…), not to this process's whole environment. */
  env?: Record<string, string>
  cwd?: string
  /** Where the server's stderr goes. Default 'inherit'. */
  stderr?: 'inherit' | 'ignore'
}

/** A server reached over Streamable HTTP; servers that only speak the older HTTP+SSE transport are tried next. */
export type McpHttpServer = { url: string | URL; headers?: Record<string, string> }

/** Where the tools come from: a stdio command, an HTTP endpoint, or a Client you connected yourself. */
export type McpServerSpec = McpStdioServer | McpHttpServer | Client

export type McpToolsOptions = {
  /** Prepended to every tool name the model sees (e.g. `fs_`). */
  prefix?: string
  /** Server tool names (or globs) to offer; default all. */
  include?: string[]
  /** Server tool names (or globs) to leave out. */
  exclude?: string[]
  /**
   * Whether calls wait for an approval: all of them, per server tool name, or decided from the
   * server's definition. A definition's `annotations` are the server's own claims (the MCP spec
   * calls them untrusted): decide from names you reviewed, not from `readOnlyHint`.
   */
  needsApproval?: boolean | Record<string, boolean> | ((tool: McpToolDefinition) => boolean)
  /**
   * Per-call timeout (Infinity: none); the call reads `timeout` and the server gets an MCP
   * cancellation when it fires. Without it the runtime's `toolTimeoutMs` applies; the SDK's own
   * request timeout never cuts a call short.
   */
  timeoutMs?: number
  /** Where renamed or skipped tools and failed reloads are reported. Default: `process.emitWarning`. */
  logger?: McpLogger
  /**
   * OAuth for a `{ url }` server that answers 401 (the MCP SDK's `OAuthClientProvider`: yours, or
   * its `ClientCredentialsProvider` for machine-to-machine). The SDK discovers the server's
   * protected-resource and authorization-server metadata, registers, and obtains and refreshes
   * tokens through it; tokens and client secrets never appear in Nestor's labels or errors.
   */
  authProvider?: OAuthClientProvider
  /** How this client introduces itself to the server. */
  clientInfo?: { name: string; version: string }
}

/** What `mcpTools()` returns. */
export type McpTools = {
  /**
   * The server's tools as Nestor tools, refreshed when the server announces a change. An exec
   * that was given some of them sees the current list before each model call.
   */
  readonly tools: Tool[]
  /** The connected client (for resources, prompts or anything else the server offers). */
  readonly client: Client | undefined
  /** Ends the session; a stdio server's process is stopped. A Client passed in is left open. */
  close(): Promise<void>
}
