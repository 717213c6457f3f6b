import { invalidOption, NestorError } from '../contract/errors.js'
import { normalizeTools } from './tool.js'
import type { Tool, ToolInput } from '../contract/types.js'

/** Tools registered globally: exec resolves them all when it names no tools of its own. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>()

  add(...inputs: ToolInput[]): this {
    for (const tool of normalizeTools(inputs)) this.tools.set(tool.spec.name, tool)
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

/** Rejects duplicate names; returns a name → tool map in the given order. */
export function indexTools(tools: Tool[]): Map<string, Tool> {
  const map = new Map<string, Tool>()
  for (const tool of tools) {
    if (map.has(tool.spec.name)) throw invalidOption('tools', 'unique tool names', tool.spec.name)
    map.set(tool.spec.name, tool)
  }
  return map
}

const assertStringList = (name: string, value: unknown): void => {
  if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
    throw new NestorError('invalid_options', `invalid option ${name}: expected an array of tool names or globs`)
  }
}
