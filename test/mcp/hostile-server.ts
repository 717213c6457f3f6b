import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpLogEntry } from '@nestor/mcp'

/** A tool definition as a server sends it. */
export const def = (name: string): Tool => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } })

/**
 * An MCP server built on the SDK's own Server class that answers tools/list with whatever `page`
 * returns (a cursor loop, bad names…) and counts the lists it served; connected in memory to a
 * real SDK Client, which is what mcpTools() is given.
 */
export async function hostileServer<C extends Client = Client>(
  page: (cursor: string | undefined, call: number) => ListToolsResult,
  client: C = new Client({ name: 'nestor-test', version: '1' }) as C,
) {
  const server = new Server({ name: 'hostile', version: '1' }, { capabilities: { tools: { listChanged: true } } })
  const stats = { lists: 0, calls: [] as string[] }
  server.setRequestHandler(ListToolsRequestSchema, (request) => page(request.params?.cursor, ++stats.lists))
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    stats.calls.push(request.params.name)
    return { content: [{ type: 'text', text: `${request.params.name} ran` }] }
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  await client.connect(clientSide)
  return {
    server,
    client,
    stats,
    async close() {
      await client.close()
      await server.close()
    },
  }
}

/** A logger that keeps what mcpTools reported. */
export function keptLog() {
  const entries: McpLogEntry[] = []
  return { entries, logger: { log: (entry: McpLogEntry) => void entries.push(entry) } }
}
