import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import { NestorError, defineTool, type JSONSchema, type Tool, type ToolContext } from '@nestor/core'
import { globMatch, liveToolList, messageOf, type LiveToolList } from '@nestor/core/provider-kit'
import type { McpConnection } from './connection.js'
import { toToolOutput } from './content.js'
import type { McpToolDefinition, McpToolsOptions } from './types.js'

const INVALID_NAME_CHARS = /[^a-zA-Z0-9_.:-]/g

/**
 * The server's tools as Nestor tools. It is the live list the core re-reads before each model
 * call: after a `tools/list_changed` notification `current()` waits for the new list, so a model
 * call that follows the notification sees it. Unchanged tools keep their identity across reloads.
 */
export class McpToolList implements LiveToolList {
  tools: Tool[] = []
  #pending: Promise<readonly Tool[]> | undefined
  #byDefinition = new Map<string, Tool>()

  constructor(
    private readonly connection: McpConnection,
    private readonly options: McpToolsOptions,
  ) {}

  current(): readonly Tool[] | Promise<readonly Tool[]> {
    return this.#pending ?? this.tools
  }

  /** Loads the list now; a failure is thrown (used when connecting). */
  async load(client: Client): Promise<void> {
    this.tools = this.#build(await listAll(client))
  }

  /** Reloads after a change notification or a reconnect. A failed reload keeps the last list. */
  invalidate(): void {
    const previous = this.#pending ?? Promise.resolve(this.tools)
    const next: Promise<readonly Tool[]> = previous.then(async () => {
      try {
        await this.load(await this.connection.get())
      } catch {
        // The next call reconnects and reloads; until then the model keeps the tools it knew.
      }
      if (this.#pending === next) this.#pending = undefined
      return this.tools
    })
    this.#pending = next
  }

  #build(definitions: McpToolDefinition[]): Tool[] {
    const { include, exclude, prefix = '' } = this.options
    const tools: Tool[] = []
    const names = new Set<string>()
    const known = new Map<string, Tool>()
    for (const def of definitions) {
      if (include && !include.some((p) => globMatch(p, def.name))) continue
      if (exclude?.some((p) => globMatch(p, def.name))) continue
      const name = (prefix + def.name).replace(INVALID_NAME_CHARS, '_').slice(0, 64)
      if (names.has(name)) continue
      names.add(name)
      const key = `${name}\u0000${JSON.stringify(def)}`
      const tool = this.#byDefinition.get(key) ?? this.#toTool(name, def)
      known.set(key, tool)
      tools.push(tool)
    }
    this.#byDefinition = known
    return tools
  }

  #toTool(name: string, def: McpToolDefinition): Tool {
    const { $schema: _dialect, ...parameters } = def.inputSchema as JSONSchema
    const connection = this.connection
    const timeoutMs = this.options.timeoutMs
    const approval = needsApproval(this.options.needsApproval, def)
    const tool = defineTool({
      name,
      description: def.description ?? def.title ?? def.name,
      parameters: parameters as JSONSchema,
      ...(approval !== undefined && { needsApproval: approval }),
      ...(timeoutMs !== undefined && { timeoutMs }),
      execute: (args: Record<string, unknown>, ctx: ToolContext) =>
        callTool(connection, def.name, args, ctx, timeoutMs),
    }) as Tool
    Object.defineProperty(tool, liveToolList, { value: this, enumerable: true })
    return tool
  }
}

async function listAll(client: Client): Promise<McpToolDefinition[]> {
  const all: McpToolDefinition[] = []
  let cursor: string | undefined
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor })
    all.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return all
}

function needsApproval(option: McpToolsOptions['needsApproval'], def: McpToolDefinition): boolean | undefined {
  if (option === undefined || typeof option === 'boolean') return option
  if (typeof option === 'function') return option(def)
  return option[def.name]
}

/**
 * One `tools/call`. The tool's signal goes to the SDK, which sends `notifications/cancelled` when
 * it aborts (exec abort or timeout); progress notifications become `ctx.update()`.
 */
async function callTool(
  connection: McpConnection,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
  timeoutMs: number | undefined,
) {
  const client = await connection.get().catch((error: unknown) => {
    throw NestorError.isInstance(error)
      ? error
      : new Error(
          `could not connect to MCP server ${connection.label} for ${name} (${messageOf(error)}); the next call tries again`,
          { cause: error },
        )
  })
  let result
  try {
    result = await client.callTool({ name, arguments: args }, undefined, {
      signal: ctx.signal,
      onprogress: (p) =>
        ctx.update({
          progress: p.progress,
          ...(p.total !== undefined && { total: p.total }),
          ...(p.message !== undefined && { message: p.message }),
        }),
      resetTimeoutOnProgress: true,
      // Nestor's own timeout answers the call; the SDK's only backs it up.
      ...(timeoutMs !== undefined && Number.isFinite(timeoutMs) && { timeout: timeoutMs + 1000 }),
    })
  } catch (error) {
    if (ctx.signal.aborted) throw error
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      throw new Error(
        `MCP server ${connection.label} closed the connection during ${name}; the next call connects again`,
        { cause: error },
      )
    }
    if (!(error instanceof McpError) && connection.discard(client)) {
      // Not an answer from the server but a transport failure (HTTP error, expired session):
      // this session is dropped so the next call opens a new one.
      throw new Error(
        `MCP server ${connection.label} could not be reached during ${name} (${messageOf(error)}); the next call connects again`,
        { cause: error },
      )
    }
    throw error
  }
  return toToolOutput(result as Parameters<typeof toToolOutput>[0])
}
