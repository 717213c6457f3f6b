import { option, type OptionShape } from '../options/option-schema.js'
import type { JSONSchema, ToolControl } from '../contract/types.js'
import { fields, nestedObject, toolFields, withoutKeys } from './manifest-fields.js'
import { seedOwners } from './seed-manifest.js'

// The shape of a registry manifest (docs/governance.md, "Declared registries"), checked field by
// field with the option rules so every problem is collected and worded like an options error.
// Two forms: Nestor's lists (`agents: [{ id, tools: [{ name, … }] }]`) and the seed system's maps
// keyed by id with snake_case fields (seed-manifest.ts); both become the same declarations here.
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
  needsApproval?: boolean
  control?: ToolControl
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

/** How the author spelt the fields that later checks name (`field inputSchema` or `field input_schema`). */
export type Spelling = Record<'name' | 'inputSchema' | 'outputSchema' | 'control' | 'allowedTools', string>

/** A manifest after its shape check: the owners and tools well formed enough to check further. */
export type Checked = { problems: string[]; owners: CheckedOwner[] }
export type CheckedOwner = OwnerDeclaration & {
  kind: OwnerKind
  /** `owner worker-a` (or `owner agents[2]` without a good id): how problems name it. */
  label: string
  /** Where it is in the manifest: `agents[2]` or `agents.worker-a`. */
  at: string
  /** Its well-formed tools. */
  tools: ToolDeclaration[]
  /** The names of all its tools, well formed or not: what `allowedTools` and unique names check. */
  names: string[]
  spelling: Spelling
}

const LIST_SPELLING: Spelling = {
  name: 'field name',
  inputSchema: 'field inputSchema',
  outputSchema: 'field outputSchema',
  control: 'field control',
  allowedTools: 'field allowedTools',
}

const list = (what: string) => option.custom<unknown[]>(what, Array.isArray)
const owners = () =>
  option.custom<unknown>(
    'an array of owners, or a map of owners keyed by id',
    (v) => Array.isArray(v) || option.plainObject().test(v),
  )

const manifestShape = (): OptionShape => ({ agents: owners().optional(), subagents: owners().optional() })
const ownerShape = (): OptionShape => ({
  id: option.nonEmptyString('a non-empty owner id'),
  tools: list('an array of tools').optional(),
  allowedTools: option.stringList('an array of tool names').optional(),
  maxToolCalls: option.nonNegativeInt().optional(),
  toolTimeoutMs: option.nonNegative().optional(),
})
const toolShape = (): OptionShape => ({
  name: option.nonEmptyString('a tool name'),
  ...toolFields(),
  inputSchema: nestedObject().optional(),
  outputSchema: nestedObject().optional(),
  needsApproval: option.boolean().optional(),
})

/**
 * Every shape problem of `data` (unknown keys, missing or mistyped fields), each naming its owner,
 * tool and field, and what is left to check: a bad tool is dropped, its owner kept, so the later
 * checks still report the problems of everything else.
 */
export function checkManifest(data: unknown): Checked {
  const problems: string[] = []
  const found: CheckedOwner[] = []
  if (!fields(manifestShape(), data, 'manifest', problems)) return { problems, owners: found }
  const manifest = data as Record<string, unknown>
  for (const kind of ['agents', 'subagents'] as const) {
    const entries = manifest[kind]
    if (Array.isArray(entries)) found.push(...listOwners(kind, entries, problems))
    else if (option.plainObject().test(entries)) found.push(...seedOwners(kind, entries as object, problems))
  }
  return { problems, owners: found }
}

function listOwners(kind: OwnerKind, entries: unknown[], problems: string[]): CheckedOwner[] {
  const [ownerRules, toolRules] = [ownerShape(), toolShape()]
  return entries.flatMap((entry: unknown, i) => {
    const label = ownerLabel(kind, i, entry)
    const bad = fields(ownerRules, entry, label, problems)
    if (bad === undefined) return []
    const owner = withoutKeys(entry as object, bad)
    const declared: unknown[] = Array.isArray(owner.tools) ? owner.tools : []
    const tools = declared.filter(
      (tool, j) => fields(toolRules, tool, `${label}, ${toolLabel(j, tool)}`, problems)?.size === 0,
    ) as ToolDeclaration[]
    const names = declared.flatMap((tool) => {
      const name = (tool as { name?: unknown } | null)?.name
      return typeof name === 'string' && name !== '' ? [name] : []
    })
    return [
      { id: '', ...owner, kind, label, at: `${kind}[${i}]`, tools, names, spelling: LIST_SPELLING } as CheckedOwner,
    ]
  })
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
