import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js'
import type { AgentEvent, EventOf, Runtime, Tool, ToolInput } from '@nestor/core'
import { invalidOption, messageOf, normalizeTools } from '@nestor/core/integration-kit'
import { toMcpContent } from './content.js'
import { elicitingAsk } from './serve-elicitation.js'
import { logLevelGate } from './serve-logging.js'
import { checkServeOptions } from './serve-options.js'
import { serveHttp, type HttpTransportOptions, type McpServing } from './serve-http.js'
import { promptTable, serveCompletions, servePrompts } from './serve-prompts.js'
import { ResourceCatalog, ResourceWatchers, serveResources } from './serve-resources.js'
import type { McpPrompt, McpResource } from './serve-types.js'

/** An agent exposed as one tool; `agent` is anything with `asTool()`, such as an `Agent` of @nestor/agents. */
export type McpAgentEntry = {
  name: string
  description: string
  agent: { asTool(options: { name: string; description: string }): Tool }
}

export type ServeMcpOptions = {
  /** Runs every call: its gates (validation, timeouts, approvals), budgets and event listeners apply. */
  runtime: Runtime
  tools?: ToolInput[]
  agents?: McpAgentEntry[]
  /** Resources at fixed URIs and resource templates, listed, read and watched by clients. */
  resources?: McpResource[]
  /** Prompt templates, with arguments clients can complete. */
  prompts?: McpPrompt[]
  serverInfo?: { name: string; version: string }
}

/** `'stdio'` (this process's stdin/stdout), Streamable HTTP on a loopback port, or any SDK server transport. */
export type ServeMcpTransport = 'stdio' | ({ http: true } & HttpTransportOptions) | Transport

/**
 * Offers Nestor tools, and agents as tools that run a nested exec, to any MCP client. Each call
 * runs through `runtime.runBatch`, so a tool body that calls `exec()` nests under it. Updates
 * (`ctx.update()`) and the nested execs' tool calls reach the client as progress notifications
 * when it asked for them; a client's cancellation aborts the call and everything under it. A
 * call's `ctx.ask` is asked of the client's user (elicitation). Resources and prompts are served
 * beside the tools, with completion of their arguments (docs/mcp.md).
 */
export async function serveMcp(options: ServeMcpOptions, transport: ServeMcpTransport): Promise<McpServing> {
  checkServeOptions(options)
  if (transport !== 'stdio' && (typeof transport !== 'object' || transport === null))
    throw invalidOption('transport', "'stdio', { http: true, … } or an MCP server Transport", transport)
  const tools = new Map<string, Tool>()
  const agentTools = (options.agents ?? []).map((a) => a.agent.asTool({ name: a.name, description: a.description }))
  for (const tool of [...normalizeTools(options.tools ?? []), ...agentTools]) {
    if (tools.has(tool.spec.name)) throw invalidOption('tools', 'unique tool names', tool.spec.name)
    tools.set(tool.spec.name, tool)
  }
  const served: Served = {
    tools,
    resources: new ResourceCatalog(options.resources ?? []),
    prompts: promptTable(options.prompts ?? []),
    watchers: new ResourceWatchers(),
  }
  const resourceUpdated = (uri: string) => served.watchers.updated(uri)
  const create = () => createServer(options, served)
  if (transport === 'stdio') return connectOne(create(), new StdioServerTransport(), resourceUpdated)
  if ('http' in transport && transport.http === true)
    return { ...(await serveHttp(create, transport)), resourceUpdated }
  return connectOne(create(), transport as Transport, resourceUpdated)
}

/** What every session's server serves, built once. */
type Served = {
  tools: Map<string, Tool>
  resources: ResourceCatalog
  prompts: Map<string, McpPrompt>
  watchers: ResourceWatchers
}

async function connectOne(
  server: Server,
  transport: Transport,
  resourceUpdated: McpServing['resourceUpdated'],
): Promise<McpServing> {
  await server.connect(transport)
  return { close: () => server.close(), resourceUpdated }
}

function createServer(options: ServeMcpOptions, served: Served): Server {
  const { tools, resources, prompts } = served
  const withPrompts = prompts.size > 0
  const withResources = !resources.empty
  const server = new Server(options.serverInfo ?? { name: 'nestor', version: '0.1.0' }, {
    capabilities: {
      tools: {},
      logging: {},
      ...(withResources && { resources: { subscribe: true } }),
      ...(withPrompts && { prompts: {} }),
      ...((withPrompts || resources.templates.length > 0) && { completions: {} }),
    },
  })
  const logs = logLevelGate(server)
  if (withResources) serveResources(server, resources, served.watchers)
  if (withPrompts) servePrompts(server, prompts)
  if (withPrompts || resources.templates.length > 0) serveCompletions(server, prompts, resources)
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((t) => ({
      name: t.spec.name,
      description: t.spec.description,
      inputSchema: { type: 'object' as const, ...t.spec.parameters },
    })),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`)
    const args = request.params.arguments ?? {}
    // Checked here so the client gets an error result (a batch refuses an invalid plan outright).
    const check = tool.validate?.(args)
    if (check && !check.ok) return errorText(`invalid arguments for ${tool.spec.name}: ${check.issues.join('; ')}`)
    const token = extra._meta?.progressToken
    let progress = 0
    // Sent before the result: a client drops progress that arrives after the response.
    const sending: Promise<unknown>[] = []
    const send = (notification: ServerNotification) =>
      sending.push(extra.sendNotification(notification).catch(() => undefined))
    const report = (message: string) => {
      if (token !== undefined)
        send({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress, message } })
    }
    // Log lines of the call (and of the execs under it) go on the call's own stream, at the session's level.
    const log = (event: EventOf<'tool_log'>) => {
      if (logs(event.level)) send(logNotification(tool.spec.name, event))
    }
    try {
      const batch = await options.runtime.runBatch([{ tool: tool.spec.name, args }], {
        tools: [tool],
        signal: extra.signal,
        // The call's questions go to the client's user (elicitation), on this call's stream.
        ask: elicitingAsk(server, extra.requestId),
        // This call's own stream (its exec and those opened under it): no runtime-wide listener.
        onEvent: (event: AgentEvent) => (event.type === 'tool_log' ? log(event) : progressOf(event, report)),
      })
      const result = batch.results[0]!.result
      await Promise.all(sending)
      return { content: toMcpContent(result.content), isError: result.isError }
    } catch (error) {
      return errorText(messageOf(error))
    }
  })
  return server
}

/** What a served call reports as progress: its tool's updates, and the calls and updates of the execs under it. */
function progressOf(event: AgentEvent, report: (message: string) => void): void {
  if (event.type === 'tool_update')
    report(typeof event.update === 'string' ? event.update : JSON.stringify(event.update))
  else if (event.type === 'tool_start' && event.depth > 0) report(`calling ${event.toolName}`)
}

/** `data` is the message, or `{ message, data }` when the line carries data; `logger` names the served tool. */
const logNotification = (logger: string, event: EventOf<'tool_log'>): ServerNotification => ({
  method: 'notifications/message',
  params: {
    level: event.level,
    logger,
    data: event.data === undefined ? event.message : { message: event.message, data: event.data },
  },
})

const errorText = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] })
