import type { JSONSchema, ToolControl } from '../contract/types.js'

// What a registry manifest declares, once its shape is checked (manifest.ts, seed-manifest.ts).

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
