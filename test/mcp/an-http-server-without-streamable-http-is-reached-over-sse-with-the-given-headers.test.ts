import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Runtime } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calls } from '../support/run.js'
import { textOfResult, toolResults } from '../support/mcp-servers.js'

/** A server of the older HTTP+SSE transport only (GET /sse, POST /messages), on loopback. */
function legacySseServer() {
  const transports = new Map<string, SSEServerTransport>()
  const seen: { method: string; authorization: string | undefined }[] = []
  const http = createServer(async (req: IncomingMessage, res) => {
    seen.push({ method: `${req.method} ${req.url?.split('?')[0]}`, authorization: req.headers.authorization })
    if (req.method === 'GET' && req.url === '/sse') {
      const transport = new SSEServerTransport('/messages', res)
      transports.set(transport.sessionId, transport)
      const server = new Server({ name: 'legacy', version: '1' }, { capabilities: { tools: {} } })
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [{ name: 'ping', inputSchema: { type: 'object' } }],
      }))
      server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'pong' }] }))
      await server.connect(transport)
    } else if (req.method === 'POST' && req.url?.startsWith('/messages')) {
      const id = new URL(req.url, 'http://x').searchParams.get('sessionId') ?? ''
      await transports.get(id)?.handlePostMessage(req, res)
    } else {
      res.writeHead(405).end()
    }
  })
  return { http, seen, transports }
}

describe('Streamable HTTP with the SSE fallback', () => {
  const legacy = legacySseServer()
  let url: string
  beforeAll(async () => {
    await new Promise<void>((resolve) => legacy.http.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(legacy.http.address() as AddressInfo).port}/sse`
  })
  afterAll(async () => {
    for (const t of legacy.transports.values()) await t.close()
    legacy.http.closeAllConnections()
    await new Promise((resolve) => legacy.http.close(resolve))
  })

  it('falls back to SSE when the server refuses Streamable HTTP, sending the headers on every request', async () => {
    const mcp = await mcpTools({ url, headers: { authorization: 'Bearer test-token' } })
    try {
      const provider = scripted([calls({ name: 'ping' }), 'done'])
      const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools })
      expect(textOfResult(toolResults(result.history)[0]!)).toBe('pong')
      expect(legacy.seen[0]!.method).toBe('POST /sse')
      expect(legacy.seen.map((s) => s.method)).toEqual(expect.arrayContaining(['GET /sse', 'POST /messages']))
      expect(legacy.seen.every((s) => s.authorization === 'Bearer test-token')).toBe(true)
    } finally {
      await mcp.close()
    }
  })
})
