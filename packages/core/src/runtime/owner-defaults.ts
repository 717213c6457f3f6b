import { NestorError, invalidOption } from '../contract/errors.js'
import type { ExecOptions, OwnerDefaults, ToolList } from '../contract/exec-types.js'
import type { Tool } from '../contract/types.js'
import type { LoopSettings } from '../exec/context.js'
import { checkToolNames, filterTools } from '../tools/registry.js'
import { normalizeTools } from '../tools/tool.js'

/** An exec's options with its owner's defaults under them, and the settings they change. */
export type Owned<O extends ExecOptions> = { options: O; settings?: Partial<LoopSettings> }

/**
 * Applies the defaults of `options.owner` (an owner of the runtime's declared registry): its
 * allowed tools, its `maxToolCalls`, and its tool timeout for this exec's calls. A key the exec
 * gives itself wins; tools it passes in code join the owner's. An owner the registry does not
 * declare is refused before anything runs.
 */
export function applyOwner<O extends ExecOptions>(registry: ToolList | undefined, options: O): Owned<O> {
  if (options.owner === undefined) return { options }
  const owners = registry?.owners
  const owner = owners?.get(options.owner)
  if (!registry || !owner) {
    const known = owners && owners.size ? [...owners.keys()].join(', ') : 'none declared'
    throw invalidOption('owner', `an owner of the runtime's registry (${known})`, options.owner)
  }
  const declared = registry.list()
  // A registry other than loadRegistry's is not checked at load: its lists are checked here.
  const label = `owner ${options.owner}'s allowedTools`
  checkToolNames(declared, { [label]: owner.allowedTools })
  const merged: O = { ...options }
  if (options.tools === undefined) merged.toolsAllow ??= [...owner.allowedTools]
  else merged.tools = joined(declared, owner, options, label)
  if (owner.maxToolCalls !== undefined) merged.maxToolCalls ??= owner.maxToolCalls
  return { options: merged, ...settingsOf(owner) }
}

/**
 * The settings a resumed owner's exec runs with again (its budgets travel in the state). The
 * resuming runtime must declare that owner: a state is refused rather than run without its limits.
 */
export function ownerSettings(
  registry: ToolList | undefined,
  id: string | undefined,
): Pick<Owned<ExecOptions>, 'settings'> {
  if (id === undefined) return {}
  const owner = registry?.owners?.get(id)
  if (!owner)
    throw new NestorError(
      'invalid_state',
      `invalid RunState: it names owner ${id}, which this runtime's registry lacks`,
    )
  return settingsOf(owner)
}

const settingsOf = (owner: OwnerDefaults): Pick<Owned<ExecOptions>, 'settings'> =>
  owner.toolTimeoutMs === undefined ? {} : { settings: { toolTimeoutMs: owner.toolTimeoutMs } }

/**
 * The owner's tools and the exec's own: the owner's allowed ones (or, when the exec gives its own
 * `toolsAllow`, every declared tool for that list to choose from). A name in both is refused.
 */
function joined(declared: Tool[], owner: OwnerDefaults, options: ExecOptions, label: string): Tool[] {
  const own = normalizeTools(options.tools ?? [])
  const owners = options.toolsAllow ? declared : filterTools(declared, [...owner.allowedTools])
  const names = new Set(owners.map((tool) => tool.spec.name))
  for (const tool of own)
    if (names.has(tool.spec.name))
      throw invalidOption('tools', `names other than those of ${label} (${[...names].join(', ')})`, tool.spec.name)
  return [...owners, ...own]
}
