import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { McpStdioServer } from '@nestor/mcp'
import type { ExecRun, Message, ToolResultMessage } from '@nestor/core'

const require = createRequire(import.meta.url)

/** The installed bin script of an npm MCP server, run with this node (no npx download at test time). */
function binOf(pkg: string): string {
  const manifest = require.resolve(`${pkg}/package.json`)
  const { bin } = require(manifest) as { bin: Record<string, string> }
  return join(dirname(manifest), Object.values(bin)[0]!)
}

export const everythingServer = (): McpStdioServer => ({
  command: process.execPath,
  args: [binOf('@modelcontextprotocol/server-everything'), 'stdio'],
  stderr: 'ignore',
})

export const filesystemServer = (dir: string): McpStdioServer => ({
  command: process.execPath,
  args: [binOf('@modelcontextprotocol/server-filesystem'), dir],
  stderr: 'ignore',
})

/** Our own SDK-built server for hangs, deaths and list changes (test/mcp/fixtures/edge-server.mjs). */
export const edgeServer = (): McpStdioServer => ({
  command: process.execPath,
  args: [fileURLToPath(new URL('../mcp/fixtures/edge-server.mjs', import.meta.url))],
  stderr: 'ignore',
})

export const toolResults = (history: Message[]): ToolResultMessage[] =>
  history.filter((m): m is ToolResultMessage => m.role === 'toolResult')

export const textOfResult = (m: ToolResultMessage): string =>
  m.content.map((c) => (c.type === 'text' ? c.text : '')).join('')

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Drains a run. */
export async function drain(run: ExecRun) {
  const events = []
  for await (const event of run) events.push(event)
  return { events, result: await run }
}
