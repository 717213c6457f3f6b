import { option, type OptionShape } from '../options/option-schema.js'
import { fields, nestedObject, toolFields, withoutKeys } from './manifest-fields.js'
import type { CheckedOwner, OwnerKind, Spelling, ToolDeclaration } from './manifest.js'

// The seed system's manifest as written: owners and tools as maps keyed by their ids, snake_case
// fields, runner defaults in a block of their own with the timeout in seconds. It is checked
// with the same rules as the list form and becomes the same declarations, so every later check
// (and every message, in the author's spelling) is shared.

const SEED_SPELLING: Spelling = {
  name: 'key',
  inputSchema: 'field input_schema',
  outputSchema: 'field output_schema',
  control: 'field control',
  allowedTools: 'field runner_defaults.allowed_tools',
}

const map = (what: string) => option.custom<Record<string, unknown>>(what, (v) => option.plainObject().test(v))

const ownerShape = (): OptionShape => ({
  tools: map('a map of tools keyed by name').optional(),
  runner_defaults: map('an object').optional(),
})
const defaultsShape = (): OptionShape => ({
  allowed_tools: option.stringList('an array of tool names').optional(),
  max_calls: option.nonNegativeInt().optional(),
  tool_timeout_s: option.nonNegative().optional(),
})
const toolShape = (): OptionShape => ({
  ...toolFields(),
  input_schema: nestedObject().optional(),
  output_schema: nestedObject().optional(),
  needs_approval: option.boolean().optional(),
})

/** The owners of one `agents` or `subagents` map, as declarations; their problems added. */
export function seedOwners(kind: OwnerKind, entries: object, problems: string[]): CheckedOwner[] {
  const [ownerRules, defaultsRules, toolRules] = [ownerShape(), defaultsShape(), toolShape()]
  return Object.entries(entries).flatMap(([id, entry]) => {
    const label = id === '' ? `owner ${kind}[""]` : `owner ${id}`
    if (id === '') problems.push(`${label}: expected a non-empty owner id`)
    const bad = fields(ownerRules, entry, label, problems)
    if (bad === undefined) return []
    const owner = withoutKeys(entry as object, bad)
    const defaults = owner.runner_defaults
      ? withoutKeys(
          owner.runner_defaults,
          fields(defaultsRules, owner.runner_defaults, `${label}, runner_defaults`, problems)!,
        )
      : {}
    const declared = Object.entries((owner.tools ?? {}) as object)
    const tools = declared.flatMap(([name, tool]) =>
      fields(toolRules, tool, `${label}, tool ${name}`, problems)?.size === 0
        ? [toolDeclaration(name, tool as Record<string, unknown>)]
        : [],
    )
    const timeoutS = defaults.tool_timeout_s as number | undefined
    const declaration: CheckedOwner = {
      id,
      kind,
      label,
      at: `${kind}.${id}`,
      tools,
      names: declared.map(([name]) => name),
      spelling: SEED_SPELLING,
      ...(defaults.allowed_tools !== undefined && { allowedTools: defaults.allowed_tools as string[] }),
      ...(defaults.max_calls !== undefined && { maxToolCalls: defaults.max_calls as number }),
      ...(timeoutS !== undefined && { toolTimeoutMs: timeoutS * 1000 }),
    }
    return [declaration]
  })
}

function toolDeclaration(name: string, tool: Record<string, unknown>): ToolDeclaration {
  const { input_schema, output_schema, needs_approval, ...same } = tool
  return {
    name,
    ...(same as Omit<ToolDeclaration, 'name'>),
    ...(input_schema !== undefined && { inputSchema: input_schema }),
    ...(output_schema !== undefined && { outputSchema: output_schema }),
    ...(needs_approval !== undefined && { needsApproval: needs_approval as boolean }),
  } as ToolDeclaration
}
