import { option, type OptionShape } from '../options/option-schema.js'
import type { JSONSchema } from '../contract/types.js'

// The shape of a registry manifest (docs/governance.md, "Declared registries"), checked field by
// field with the option rules so every problem is collected and worded like an options error.
// Only the shape is checked here; callables, schemas and names across owners are load-registry's.

/** One tool as a manifest declares it. */
export type ToolDeclaration = {
  name: string
  /** `module#export`: the module relative to the manifest file, the export a function. */
  callable: string
  description: string
  inputSchema?: JSONSchema
  outputSchema?: JSONSchema
  cacheable?: boolean
}

/** One owner of a manifest (an entry of `agents` or `subagents`). */
export type OwnerDeclaration = {
  id: string
  tools?: ToolDeclaration[]
  allowedTools?: string[]
  maxToolCalls?: number
  toolTimeoutMs?: number
}

export type OwnerKind = 'agents' | 'subagents'

const list = (what: string) => option.custom<unknown[]>(what, Array.isArray)
const object = () => option.plainObject()

const manifestShape = (): OptionShape => ({
  agents: list('an array of owners').optional(),
  subagents: list('an array of owners').optional(),
})
const ownerShape = (): OptionShape => ({
  id: option.nonEmptyString('a non-empty owner id'),
  tools: list('an array of tools').optional(),
  allowedTools: option.stringList('an array of tool names').optional(),
  maxToolCalls: option.nonNegativeInt().optional(),
  toolTimeoutMs: option.nonNegative().optional(),
})
const toolShape = (): OptionShape => ({
  name: option.nonEmptyString('a tool name'),
  callable: option.custom<string>("'module#export'", (v) => typeof v === 'string' && /^[^#]+#[^#]+$/.test(v)),
  description: option.string(),
  inputSchema: object().optional(),
  outputSchema: object().optional(),
  cacheable: option.boolean().optional(),
})

/** A manifest after its shape check: the owners and tools well formed enough to check further. */
export type Checked = { problems: string[]; owners: CheckedOwner[] }
export type CheckedOwner = OwnerDeclaration & {
  kind: OwnerKind
  /** `owner worker-a` (or `owner agents[2]` without a good id): how problems name it. */
  label: string
  /** Where it is in the manifest: `agents[2]`. */
  at: string
  /** Its well-formed tools. */
  tools: ToolDeclaration[]
  /** The names of all its tools, well formed or not: what `allowedTools` and unique names check. */
  names: string[]
}

/**
 * Every shape problem of `data` (unknown keys, missing or mistyped fields), each naming its owner,
 * tool and field, and what is left to check: a bad tool is dropped, its owner kept, so the later
 * checks still report the problems of everything else.
 */
export function checkManifest(data: unknown): Checked {
  const problems: string[] = []
  const owners: CheckedOwner[] = []
  if (!fields(manifestShape(), data, 'manifest', problems)) return { problems, owners }
  const [ownerRules, toolRules] = [ownerShape(), toolShape()]
  const manifest = data as Record<string, unknown>
  for (const kind of ['agents', 'subagents'] as const) {
    const entries = manifest[kind]
    if (!Array.isArray(entries)) continue
    entries.forEach((entry: unknown, i) => {
      const label = ownerLabel(kind, i, entry)
      const bad = fields(ownerRules, entry, label, problems)
      if (bad === undefined) return
      // A bad field is left out, so the checks after this one do not trip on it again.
      const owner = Object.fromEntries(Object.entries(entry as object).filter(([key]) => !bad.has(key)))
      const declared: unknown[] = Array.isArray(owner.tools) ? owner.tools : []
      const tools = declared.filter(
        (tool, j) => fields(toolRules, tool, `${label}, ${toolLabel(j, tool)}`, problems)?.size === 0,
      ) as ToolDeclaration[]
      const names = declared.flatMap((tool) => {
        const name = (tool as { name?: unknown } | null)?.name
        return typeof name === 'string' && name !== '' ? [name] : []
      })
      owners.push({ id: '', ...owner, kind, label, at: `${kind}[${i}]`, tools, names } as CheckedOwner)
    })
  }
  return { problems, owners }
}

/** `owner worker-a` when the id reads as one, else where the entry is (`agents[2]`). */
function ownerLabel(kind: OwnerKind, index: number, owner: unknown): string {
  const id = (owner as { id?: unknown } | null)?.id
  return typeof id === 'string' && id !== '' ? `owner ${id}` : `owner ${kind}[${index}]`
}

function toolLabel(index: number, tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name
  return typeof name === 'string' && name !== '' ? `tool ${name}` : `tool tools[${index}]`
}

/**
 * Adds a problem per bad field of `value` and returns the bad keys (unknown, mistyped or missing);
 * undefined when `value` is not even an object.
 */
function fields(shape: OptionShape, value: unknown, at: string, problems: string[]): Set<string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${at}: expected an object, got ${describe(value)}`)
    return undefined
  }
  const bad = new Set<string>()
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    const rule = shape[key]
    if (!rule) problems.push(`${at}, field ${key}: unknown key (known: ${Object.keys(shape).join(', ')})`)
    else if (!rule.test(record[key]))
      problems.push(`${at}, field ${key}: expected ${rule.expected}, got ${describe(record[key])}`)
    else continue
    bad.add(key)
  }
  for (const [key, rule] of Object.entries(shape))
    if (!rule.isOptional && record[key] === undefined) {
      problems.push(`${at}, field ${key}: missing`)
      bad.add(key)
    }
  return bad
}

function describe(value: unknown): string {
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text
}
