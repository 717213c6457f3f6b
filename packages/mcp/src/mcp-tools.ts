import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { NestorError } from '@nestor/core'
import { invalidOption, messageOf } from '@nestor/core/integration-kit'
import { McpConnection, isClient } from './connection.js'
import { McpToolList } from './tool-list.js'
import type { McpServerSpec, McpTools, McpToolsOptions } from './types.js'
import { reporter } from './warnings.js'

const DEFAULT_CLIENT = { name: 'nestor', version: '0.1.0' }

/**
 * Connects to an MCP server and offers its tools as Nestor tools. Throws `invalid_options` for a
 * malformed server or options and when the server cannot be reached.
 */
export async function mcpTools(server: McpServerSpec, options: McpToolsOptions = {}): Promise<McpTools> {
  checkOptions(server, options)
  let list: McpToolList | undefined
  const onOpen = (client: Client, reopened: boolean) => {
    // Replaces any handler for this notification: a Client passed in gets ours.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => list?.invalidate())
    if (reopened) list?.invalidate()
  }
  const connection = new McpConnection(server, options.clientInfo ?? DEFAULT_CLIENT, onOpen, options.authProvider)
  list = new McpToolList(connection, options, reporter(connection.label, options.logger))
  try {
    await list.load(await connection.get())
  } catch (error) {
    await connection.close().catch(() => undefined)
    throw new NestorError(
      'invalid_options',
      error instanceof UnauthorizedError || (error as { code?: unknown }).code === 401
        ? unauthorized(connection.label, options.authProvider !== undefined)
        : `invalid option server: could not list the tools of MCP server ${connection.label}: ${connection.scrub(messageOf(error))}`,
    )
  }
  const tools = list
  return {
    get tools() {
      return tools.tools
    },
    get client() {
      return connection.client
    },
    close: () => connection.close(),
  }
}

/** What a server that still refuses us after the SDK's OAuth flow (or without one) means for the app. */
const unauthorized = (label: string, hasProvider: boolean): string =>
  hasProvider
    ? `MCP server ${label} needs an authorization: authProvider.redirectToAuthorization was given its URL; ` +
      `once the user is back with a code, call auth(authProvider, { serverUrl, authorizationCode }) of ` +
      `'@modelcontextprotocol/sdk/client/auth.js', then mcpTools() again`
    : `MCP server ${label} requires OAuth: pass options.authProvider (an OAuthClientProvider)`

function checkOptions(server: McpServerSpec, options: McpToolsOptions): void {
  // Only shapes are echoed back: a server spec may hold secrets (env, headers, a token in the URL).
  if (!server || typeof server !== 'object')
    throw invalidOption('server', '{ command }, { url } or a connected Client', typeof server)
  if (!isClient(server)) {
    if ('command' in server) {
      if (typeof server.command !== 'string' || server.command === '')
        throw invalidOption('server.command', 'a non-empty string', server.command)
      if (
        server.args !== undefined &&
        !(Array.isArray(server.args) && server.args.every((a) => typeof a === 'string'))
      ) {
        throw invalidOption('server.args', 'an array of strings', server.args)
      }
    } else if ('url' in server) {
      if (!URL.canParse(String(server.url)))
        throw invalidOption('server.url', 'an absolute http(s) URL', typeof server.url)
    } else {
      throw invalidOption(
        'server',
        '{ command }, { url } or a connected Client',
        `an object with keys ${Object.keys(server).join(', ')}`,
      )
    }
  }
  if (options.prefix !== undefined && typeof options.prefix !== 'string')
    throw invalidOption('prefix', 'a string', options.prefix)
  for (const key of ['include', 'exclude'] as const) {
    const v = options[key]
    if (v !== undefined && !(Array.isArray(v) && v.every((n) => typeof n === 'string')))
      throw invalidOption(key, 'an array of tool names', v)
  }
  if (options.timeoutMs !== undefined && !(typeof options.timeoutMs === 'number' && options.timeoutMs > 0)) {
    throw invalidOption('timeoutMs', 'a positive number', options.timeoutMs)
  }
  if (options.authProvider !== undefined) {
    if (isClient(server) || !('url' in server))
      throw invalidOption('authProvider', 'a { url } server (give a Client its own authProvider)', 'another server')
    const p = options.authProvider as Partial<OAuthClientProvider> | null
    if (typeof p?.tokens !== 'function' || typeof p.saveTokens !== 'function')
      throw invalidOption(
        'authProvider',
        "an OAuthClientProvider of '@modelcontextprotocol/sdk/client/auth.js'",
        typeof p,
      )
  }
  if (options.logger !== undefined && typeof options.logger?.log !== 'function')
    throw invalidOption('logger', 'a logger { log(entry) }', typeof options.logger)
}
