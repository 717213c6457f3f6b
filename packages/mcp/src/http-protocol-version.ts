import type { IncomingMessage } from 'node:http'
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'

const HEADER = 'mcp-protocol-version'

/** The version an initialize settles on, as the SDK's server picks it: the client's if supported, else the latest. */
export function negotiatedVersion(initialize: { params: { protocolVersion: string } }): string {
  const asked = initialize.params.protocolVersion
  return SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION
}

/**
 * Serves a session's request at the version its initialize negotiated when its header names an
 * older supported one. The SDK decides per request header whether a stream opens with a priming
 * event (resumability, 2025-11-25); the client already said at initialize that it reads them.
 */
export function atNegotiatedVersion(req: IncomingMessage, negotiated: string): void {
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== HEADER) continue
    const sent = raw[i + 1]!
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(sent) || sent >= negotiated) return
    // The transport reads rawHeaders (through @hono/node-server), the rest of Node reads headers.
    raw[i + 1] = negotiated
    req.headers[HEADER] = negotiated
    return
  }
}
