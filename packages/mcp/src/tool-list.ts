import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import { NestorError, defineTool, type JSONSchema, type Tool, type ToolContext } from '@nestor/core'
import { globMatch, liveToolList, messageOf, type LiveToolList } from '@nestor/core/integration-kit'
import type { McpConnection } from './connection.js'
import { toToolOutput } from './content.js'
import { NO_SDK_TIMEOUT } from './sdk-timeout.js'
import { nameTools } from './tool-names.js'
import type { McpToolDefinition, McpToolsOptions } from './types.js'

/** Pages of `tools/list` read at most per load: a server that pages forever is cut off here. */
export const MAX_TOOL_PAGES = 100

/**
 * The server's tools as Nestor tools. It is the live list the core re-reads before each model
 * call: after a `tools/list_changed` notification `current()` waits for the new list, so a model
 * call that follows the notification sees it. Unchanged tools keep their identity across reloads.
 * However many notifications arrive, one reload runs and at most one more waits behind it.
 */
export class McpToolList implements LiveToolList {
  tools: Tool[] = []
  #running: Promise<readonly Tool[]> | undefined
  #queued: Promise<readonly Tool[]> | undefined
  #byDefinition = new Map<string, Tool>()
  readonly #warned = new Set<string>()

  constructor(
    private readonly connection: McpConnection,
    private readonly options: McpToolsOptions,
    private readonly report: (level: 'warn' | 'error', message: string) => void,
  ) {}

  current(): readonly Tool[] | Promise<readonly Tool[]> {
    return this.#queued ?? this.#running ?? this.tools
  }

  /** Loads the list now; a failure is thrown (used when connecting). */
  async load(client: Client): Promise<void> {
    this.tools = this.#build(await listAll(client, this.connection.label))
  }

  /**
   * Reloads after a change notification or a reconnect. A failed reload keeps the last list and
   * is reported; the next notification or reconnect tries again.
   */
  invalidate(): void {
    if (this.#queued) return // it has not started yet: it will see this change too
    if (!this.#running) {
      this.#running = this.#reload()
      return
    }
    const queued: Promise<readonly Tool[]> = this.#running.then(() => {
      this.#queued = undefined
      this.#running = this.#reload()
      return this.#running
    })
    this.#queued = queued
  }

  async #reload(): Promise<readonly Tool[]> {
    try {
      await this.load(await this.connection.get())
    } catch (error) {
      this.report(
        'error',
        `could not reload its tools, the last list stays in use: ${this.connection.scrub(messageOf(error))}`,
      )
    }
    this.#running = undefined
    return this.tools
  }

  #build(definitions: McpToolDefinition[]): Tool[] {
    const { include, exclude, prefix = '' } = this.options
    const offered = definitions.filter(
      (def) =>
        (!include || include.some((p) => globMatch(p, def.name))) && !exclude?.some((p) => globMatch(p, def.name)),
    )
    const tools: Tool[] = []
    const known = new Map<string, Tool>()
    for (const { name, def } of nameTools(offered, prefix, (message) => this.#warnOnce(message))) {
      const key = `${name}\u0000${JSON.stringify(def)}`
      let tool = this.#byDefinition.get(key)
      try {
        tool ??= this.#toTool(name, def)
      } catch (error) {
        // One unusable definition (a schema that does not compile…) leaves out that tool only.
        this.#warnOnce(`tool ${JSON.stringify(def.name.slice(0, 80))} was left out: ${messageOf(error)}`)
        continue
      }
      known.set(key, tool)
      tools.push(tool)
    }
    this.#byDefinition = known
    return tools
  }

  /** The same problem is reported once, not at every reload. */
  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return
    this.#warned.add(message)
    this.report('warn', message)
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
      execute: (args: Record<string, unknown>, ctx: ToolContext) => callTool(connection, def.name, args, ctx),
    }) as Tool
    Object.defineProperty(tool, liveToolList, { value: this, enumerable: true })
    return tool
  }
}

/** Every page of `tools/list`, refusing a cursor seen before (a loop) and more than MAX_TOOL_PAGES pages. */
async function listAll(client: Client, label: string): Promise<McpToolDefinition[]> {
  const all: McpToolDefinition[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let page = 1; ; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor })
    all.push(...listed.tools)
    cursor = listed.nextCursor
    if (cursor === undefined) return all
    if (seen.has(cursor))
      throw new Error(`MCP server ${label} sent a tools/list cursor it had sent before (a paging loop)`)
    if (page >= MAX_TOOL_PAGES) throw new Error(`MCP server ${label} sent more than ${MAX_TOOL_PAGES} pages of tools`)
    seen.add(cursor)
  }
}

function needsApproval(option: McpToolsOptions['needsApproval'], def: McpToolDefinition): boolean | undefined {
  if (option === undefined || typeof option === 'boolean') return option
  if (typeof option === 'function') return option(def)
  return option[def.name]
}

/**
 * One `tools/call`. The tool's signal goes to the SDK, which sends `notifications/cancelled` when
 * it aborts (exec abort or timeout); progress notifications become `ctx.update()`, and the server's
 * elicitations this call's `ctx.ask` (elicitation-answer.ts).
 */
async function callTool(connection: McpConnection, name: string, args: Record<string, unknown>, ctx: ToolContext) {
  const client = await connection.get().catch((error: unknown) => {
    throw NestorError.isInstance(error)
      ? error
      : new Error(
          `could not connect to MCP server ${connection.label} for ${name} (${connection.scrub(messageOf(error))}); the next call tries again`,
          { cause: error },
        )
  })
  let result
  const leave = connection.calls.enter(ctx)
  try {
    result = await client.callTool({ name, arguments: args }, undefined, {
      signal: ctx.signal,
      // Over Streamable HTTP: tells which call a server's elicitation came with (elicitation-answer.ts).
      onresumptiontoken: connection.calls.heard(ctx),
      onprogress: (p) =>
        ctx.update({
          progress: p.progress,
          ...(p.total !== undefined && { total: p.total }),
          ...(p.message !== undefined && { message: p.message }),
        }),
      // Nestor's timeout (the tool's `timeoutMs`, else the runtime's `toolTimeoutMs`) aborts the
      // signal and reads `timeout`; the SDK's own timer (60 s by default) must never fire first.
      timeout: NO_SDK_TIMEOUT,
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
        `MCP server ${connection.label} could not be reached during ${name} (${connection.scrub(messageOf(error))}); the next call connects again`,
        { cause: error },
      )
    }
    // The server's own error (an McpError): its text is the error result, the URL's secrets taken out.
    const message = messageOf(error)
    const scrubbed = connection.scrub(message)
    throw scrubbed === message ? error : new Error(scrubbed)
  } finally {
    leave()
  }
  return toToolOutput(result as Parameters<typeof toToolOutput>[0])
}
