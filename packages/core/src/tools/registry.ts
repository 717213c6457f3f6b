import { invalidOption } from '../contract/errors.js'
import { listOf } from './live-tool-list.js'
import { normalizeTools } from './tool.js'
import type { Tool, ToolInput } from '../contract/types.js'

/**
 * Tools registered globally: exec resolves them all when it names no tools of its own. Exact:
 * `add` of a name already there throws (two tools silently sharing a name is how the wrong one
 * runs); `replace` says the swap is meant.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>()

  /** Adds tools; a name already registered (or given twice) throws `invalid_options`, adding none. */
  add(...inputs: ToolInput[]): this {
    const tools = indexTools(normalizeTools(inputs))
    for (const name of tools.keys())
      if (this.tools.has(name))
        throw invalidOption('registry.add', 'a tool name not registered yet (registry.replace swaps one)', name)
    for (const [name, tool] of tools) this.tools.set(name, tool)
    return this
  }
  /** Adds tools, each taking the place of a registered tool of its name if there is one. */
  replace(...inputs: ToolInput[]): this {
    for (const [name, tool] of indexTools(normalizeTools(inputs))) this.tools.set(name, tool)
    return this
  }
  remove(name: string): boolean {
    return this.tools.delete(name)
  }
  get(name: string): Tool | undefined {
    return this.tools.get(name)
  }
  list(): Tool[] {
    return [...this.tools.values()]
  }
}

/** The process-wide registry that `@tool({ register: true })` and `registry.add` fill. */
export const registry = new ToolRegistry()

/** `*` globs over tool names: `fs_*`, `*_read`, `*`. */
export function globMatch(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name
  const re = new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`)
  return re.test(name)
}
const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

/** Applies allow/deny globs. A name must match some allow pattern (if any) and no deny pattern. */
export function filterTools(tools: Tool[], allow?: string[], deny?: string[]): Tool[] {
  return tools.filter(
    (t) =>
      (!allow || allow.some((p) => globMatch(p, t.spec.name))) &&
      !(deny && deny.some((p) => globMatch(p, t.spec.name))),
  )
}

/**
 * An exec's own name lists must name tools it can resolve (`*` globs are not checked): a misspelt
 * name would otherwise allow, deny or stop at nothing, silently. Tools from a live list (an MCP
 * server's) come and go, so with one among them a name may be one it has yet to list.
 */
export function checkToolNames(tools: Tool[], lists: Record<string, readonly string[] | undefined>): void {
  if (tools.some((t) => listOf(t) !== undefined)) return
  const names = new Set(tools.map((t) => t.spec.name))
  for (const [key, list] of Object.entries(lists))
    for (const name of list ?? [])
      if (!name.includes('*') && !names.has(name))
        throw invalidOption(
          key,
          `names of tools this exec can resolve (${[...names].join(', ') || 'none'}) or globs`,
          name,
        )
}

/** Rejects duplicate names; returns a name → tool map in the given order. */
export function indexTools(tools: Tool[]): Map<string, Tool> {
  const map = new Map<string, Tool>()
  for (const tool of tools) {
    if (map.has(tool.spec.name)) throw invalidOption('tools', 'unique tool names', tool.spec.name)
    map.set(tool.spec.name, tool)
  }
  return map
}
