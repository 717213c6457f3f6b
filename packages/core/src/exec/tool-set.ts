import type { Tool, ToolSpec } from '../contract/types.js'
import { listOf, type LiveToolList } from '../tools/live-tool-list.js'
import { normalizeTools } from '../tools/tool.js'

/**
 * The tools an exec offers the model, by name. Resolved once when the exec opens; tools from a
 * live list (an MCP server's) are asked for again before each model call, filtered the way the
 * exec filtered them (toolsAllow / toolsDeny), so the next call sees what was added or removed.
 */
export class ToolSet {
  #specs: ToolSpec[]
  readonly #tools: Map<string, Tool>
  readonly #lists: Set<LiveToolList>
  readonly #filter: (tools: Tool[]) => Tool[]

  constructor(tools: Map<string, Tool>, filter: (tools: Tool[]) => Tool[] = (list) => list) {
    this.#tools = tools
    this.#specs = specsOf(tools)
    this.#filter = filter
    this.#lists = new Set()
    for (const tool of tools.values()) {
      const list = listOf(tool)
      if (list) this.#lists.add(list)
    }
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name)
  }

  has(name: string): boolean {
    return this.#tools.has(name)
  }

  names(): string[] {
    return [...this.#tools.keys()]
  }

  list(): Tool[] {
    return [...this.#tools.values()]
  }

  /** What the model is told about each tool, in order. */
  get specs(): ToolSpec[] {
    return this.#specs
  }

  /** True when some tools come from a live list (each model call then refreshes them first). */
  get live(): boolean {
    return this.#lists.size > 0
  }

  /**
   * Before a model call: each live list's tools are replaced by its current ones. A new name that
   * another tool of the exec already uses is left out rather than shadowing that tool.
   */
  async refresh(): Promise<void> {
    let changed = false
    for (const list of this.#lists) {
      const next = this.#filter(normalizeTools([...(await list.current())]))
      const before = this.list().filter((t) => listOf(t) === list)
      if (before.length === next.length && before.every((t, i) => t === next[i])) continue
      changed = true
      for (const tool of before) this.#tools.delete(tool.spec.name)
      for (const tool of next) if (!this.#tools.has(tool.spec.name)) this.#tools.set(tool.spec.name, tool)
    }
    if (changed) this.#specs = specsOf(this.#tools)
  }
}

const specsOf = (tools: Map<string, Tool>): ToolSpec[] => [...tools.values()].map((t) => t.spec)
