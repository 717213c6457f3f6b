import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Runtime } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { openai } from '@nestor/providers/openai'
import { SYSTEM, promptFor, verify, type Outcome } from '../scenario.js'
import type { Runner, Target, Workload } from './types.js'

// Nestor with its tools from an MCP server over stdio: @modelcontextprotocol/server-everything,
// the protocol's reference server, started as a child process. Every one of its ~20 tools reaches
// the model as a raw JSON Schema tool; the mock server calls its `echo` (`{ message }`). Tool
// scenarios only. The cold regime times it from process start to the first exec's end, so the
// server's start, the MCP handshake and the tool listing all count.

const require = createRequire(import.meta.url)

/** The installed bin script of the server, run with this node (no npx, no download). */
function everythingBin(): string {
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json')
  const { bin } = require(manifest) as { bin: Record<string, string> }
  return join(dirname(manifest), Object.values(bin)[0]!)
}

export async function createNestorMcpRunner(target: Target): Promise<Runner> {
  const mcp = await mcpTools({ command: process.execPath, args: [everythingBin(), 'stdio'], stderr: 'ignore' })
  const runtime = new Runtime({
    provider: openai({ baseURL: target.baseURL, apiKey: target.apiKey }),
    model: target.model,
    system: SYSTEM,
  })
  return {
    name: 'nestor-mcp',
    supports: (w) => w.scenario.kind === 'tools' && w.history.length === 0,
    async run(workload: Workload): Promise<Outcome> {
      if (workload.scenario.kind !== 'tools') throw new Error('[nestor-mcp] tool scenarios only')
      const scenario = { ...workload.scenario, mcp: true as const }
      const run = runtime.exec(promptFor(scenario), { tools: mcp.tools, maxIterations: scenario.t + 1 })
      let echoed = 0
      for await (const event of run)
        if (event.type === 'tool_end' && !event.isError && event.toolName === 'echo') echoed++
      const result = await run
      if (result.status !== 'completed') throw new Error(`[nestor-mcp] exec ${result.status}: ${result.error?.message}`)
      const outcome = { toolCalls: echoed, text: result.text }
      verify('nestor-mcp', scenario, outcome)
      return outcome
    },
    close: () => mcp.close(),
  }
}
