/** A problem with a server that does not stop its tools from working: a renamed tool, a failed reload. */
export type McpLogEntry = { level: 'warn' | 'error'; server: string; message: string }

/** Where `mcpTools` reports such problems. Default: `process.emitWarning`. */
export type McpLogger = { log(entry: McpLogEntry): void }

/** Reports through the logger, or as a process warning; never throws (a logger that does is ignored). */
export function reporter(server: string, logger: McpLogger | undefined) {
  return (level: McpLogEntry['level'], message: string): void => {
    try {
      if (logger) logger.log({ level, server, message })
      else process.emitWarning(`MCP server ${server}: ${message}`, 'NestorMcpWarning')
    } catch {
      // A broken logger must not break the tools it reports on.
    }
  }
}
