import { option, type OptionShape } from '../options/option-schema.js'
import { fields, nestedObject, toolFields, withoutKeys } from './manifest-fields.js'
import type { Checked, CheckedOwner, OwnerKind, Spelling, ToolDeclaration } from './manifest-types.js'
import { seedOwners } from './seed-manifest.js'

// The shape of a registry manifest (docs/governance.md, "Declared registries"), checked field by
// field with the option rules so every problem is collected and worded like an options error.
// Two forms: Nestor's lists (`agents: [{ id, tools: [{ name, … }] }]`) and the seed system's maps
// keyed by id with snake_case fields (seed-manifest.ts); both become the same declarations here.
// Only the shape is checked here; callables, schemas and names across owners are load-registry's.

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
