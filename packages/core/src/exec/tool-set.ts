import type { Tool, ToolSpec } from '../contract/types.js'
import { listOf, type LiveToolList } from '../tools/live-tool-list.js'
import { normalizeTools } from '../tools/tool.js'
import { specFor } from '../tools/tool-parameters.js'

/**
 * The tools an exec offers the model, by name. Resolved once when the exec opens; tools from a
 * live list (an MCP server's) are asked for again before each model call, filtered the way the
 * exec filtered them (toolsAllow / toolsDeny), so the next call sees what was added or removed.
 */
export class ToolSet extends Map<string, Tool> {
  // Declared, not initialized as class fields: the constructor sets them (no field initializer
  // runs per exec).
  /** What the model is told about each tool, in order. */
  declare specs: ToolSpec[]
  /** The live lists some tools come from (each model call then refreshes them first). */
  declare readonly lists: ReadonlySet<LiveToolList>
  declare private readonly filter: (tools: Tool[]) => Tool[]
  /** The runtime's `strictArguments`: a tool's own flag wins over it. */
  declare readonly strict: boolean

  constructor(tools: Map<string, Tool>, filter: (tools: Tool[]) => Tool[] = (list) => list, strict = false) {
    super(tools)
    this.strict = strict
    const specs: ToolSpec[] = []
    const lists = new Set<LiveToolList>()
    for (const tool of tools.values()) {
      specs.push(specFor(tool, strict))
      const list = listOf(tool)
      if (list) lists.add(list)
    }
    this.specs = specs
    this.lists = lists
    this.filter = filter
  }

  /**
   * Before a model call: each live list's tools are replaced by its current ones. A new name that
   * another tool of the exec already uses is left out rather than shadowing that tool.
   */
  async refresh(): Promise<void> {
    let changed = false
    for (const list of this.lists) {
      const next = this.filter(normalizeTools([...(await list.current())]))
      const before = [...this.values()].filter((t) => listOf(t) === list)
      if (before.length === next.length && before.every((t, i) => t === next[i])) continue
      changed = true
      for (const tool of before) this.delete(tool.spec.name)
      for (const tool of next) if (!this.has(tool.spec.name)) this.set(tool.spec.name, tool)
    }
    if (changed) this.specs = [...this.values()].map((t) => specFor(t, this.strict))
  }
}
