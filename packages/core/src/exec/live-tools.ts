import type { ExecContext } from './context.js'
import { normalizeTools } from '../tools/tool.js'
import type { Tool } from '../contract/types.js'

/**
 * Marks a tool that belongs to a list which can change while an exec runs (an MCP server's
 * tools, see docs/mcp.md). An exec resolves its tools once; for tools carrying this symbol it asks
 * the list again before each model call, so the next model call sees tools added or removed since.
 */
export const liveToolList: unique symbol = Symbol.for('nestor.liveToolList')

/** The source of a changing tool list. `current()` may wait for a refresh that is under way. */
export type LiveToolList = { current(): readonly Tool[] | Promise<readonly Tool[]> }

type Watch = { lists: Set<LiveToolList>; filter: (tools: Tool[]) => Tool[] }

// Kept beside the exec context rather than in it: only execs with live tools pay for this.
const watches = new WeakMap<ExecContext, Watch>()

const listOf = (tool: Tool): LiveToolList | undefined => (tool as { [liveToolList]?: LiveToolList })[liveToolList]

/**
 * Called once when an exec starts: remembers the live lists its tools came from and the filter
 * (toolsAllow / toolsDeny) it applied, so a refreshed list is filtered the same way.
 */
export function watchLiveTools(ctx: ExecContext, filter: (tools: Tool[]) => Tool[]): void {
  const lists = new Set<LiveToolList>()
  for (const tool of ctx.env.tools.values()) {
    const list = listOf(tool)
    if (list) lists.add(list)
  }
  if (lists.size > 0) watches.set(ctx, { lists, filter })
}

/** True when the exec has tools from a live list (each model call then refreshes them first). */
export const hasLiveTools = (ctx: ExecContext): boolean => watches.has(ctx)

/**
 * Before a model call: each live list's tools are replaced by its current ones. A new name that
 * another tool of the exec already uses is left out rather than shadowing that tool.
 */
export async function refreshLiveTools(ctx: ExecContext): Promise<void> {
  const watch = watches.get(ctx)
  if (!watch) return
  let changed = false
  for (const list of watch.lists) {
    const next = watch.filter(normalizeTools([...(await list.current())]))
    const before = [...ctx.env.tools.values()].filter((t) => listOf(t) === list)
    if (before.length === next.length && before.every((t, i) => t === next[i])) continue
    changed = true
    for (const tool of before) ctx.env.tools.delete(tool.spec.name)
    for (const tool of next) if (!ctx.env.tools.has(tool.spec.name)) ctx.env.tools.set(tool.spec.name, tool)
  }
  if (changed) ctx.env.specs = [...ctx.env.tools.values()].map((t) => t.spec)
}
