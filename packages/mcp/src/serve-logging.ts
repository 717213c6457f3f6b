import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { LogLevel } from '@nestor/core'

const severity: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']

/**
 * Answers `logging/setLevel` for one served session (each has its own Server) and says whether a
 * line of a level goes out: everything until the client sets a level, then that level and above.
 */
export function logLevelGate(server: Server): (level: LogLevel) => boolean {
  let minimum = 0
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minimum = Math.max(0, severity.indexOf(request.params.level))
    return {}
  })
  return (level) => severity.indexOf(level) >= minimum
}
