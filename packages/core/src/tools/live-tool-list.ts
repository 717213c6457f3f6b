import type { Tool } from '../contract/types.js'

/**
 * Marks a tool that belongs to a list which can change while an exec runs (an MCP server's
 * tools, see docs/mcp.md). An exec asks such a list again before each model call, so the next
 * model call sees tools added or removed since (exec/tool-set.ts).
 */
export const liveToolList: unique symbol = Symbol.for('nestor.liveToolList')

/** The source of a changing tool list. `current()` may wait for a refresh that is under way. */
export type LiveToolList = { current(): readonly Tool[] | Promise<readonly Tool[]> }

/** The live list a tool came from, if any. */
export const listOf = (tool: Tool): LiveToolList | undefined =>
  (tool as { [liveToolList]?: LiveToolList })[liveToolList]
