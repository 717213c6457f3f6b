import type { McpToolDefinition } from './types.js'

/** What a Nestor tool name may hold (the core's rule): 1-64 of a-z A-Z 0-9 _ - . : starting with a letter or _. */
const VALID = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/
const INVALID_CHARS = /[^a-zA-Z0-9_.:-]/g
const MAX = 64

export type NamedTool = { name: string; def: McpToolDefinition }

/**
 * Gives each server tool a Nestor name: its own (with the prefix) when valid, else a repaired one
 * (invalid characters as `_`, a leading `_` before a digit, cut to 64), and a `_2`, `_3`… suffix
 * when two land on one name. Names that were valid as sent are given out first, so a server's
 * `a_b` keeps its name and its `a b` becomes `a_b_2`. Every repair is reported through `warn`.
 */
export function nameTools(defs: McpToolDefinition[], prefix: string, warn: (message: string) => void): NamedTool[] {
  const taken = new Set<string>()
  const named = new Map<McpToolDefinition, string>()
  const repairs: McpToolDefinition[] = []
  for (const def of defs) {
    const name = prefix + def.name
    if (VALID.test(name) && !taken.has(name)) {
      taken.add(name)
      named.set(def, name)
    } else repairs.push(def)
  }
  for (const def of repairs) {
    const name = unique(repair(prefix + def.name), taken)
    const shown = JSON.stringify(def.name.slice(0, 80))
    if (name === undefined) {
      warn(`tool ${shown} was left out: no valid name could be made from it`)
      continue
    }
    taken.add(name)
    named.set(def, name)
    warn(`tool ${shown} is offered as ${name}: its name is not a valid tool name or is already taken`)
  }
  return defs.flatMap((def) => {
    const name = named.get(def)
    return name === undefined ? [] : [{ name, def }]
  })
}

function repair(name: string): string {
  const cleaned = name.replace(INVALID_CHARS, '_')
  return (/^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`).slice(0, MAX)
}

function unique(name: string, taken: Set<string>): string | undefined {
  if (!VALID.test(name)) return undefined
  if (!taken.has(name)) return name
  for (let n = 2; n < 1000; n++) {
    const suffix = `_${n}`
    const candidate = name.slice(0, MAX - suffix.length) + suffix
    if (!taken.has(candidate)) return candidate
  }
  return undefined
}
