import { invalidOption } from '../contract/errors.js'
import type { ExecOptions, ToolList } from '../contract/exec-types.js'
import type { LoopSettings } from '../exec/context.js'

/** An exec's options with its owner's defaults under them, and the settings they change. */
export type Owned<O extends ExecOptions> = { options: O; settings?: Partial<LoopSettings> }

/**
 * Applies the defaults of `options.owner` (an owner of the runtime's declared registry): its
 * allowed tools as `toolsAllow`, its `maxToolCalls`, and its tool timeout for this exec's calls. A key the exec gives
 * itself wins. An owner the registry does not declare is refused before anything runs.
 */
export function applyOwner<O extends ExecOptions>(registry: ToolList | undefined, options: O): Owned<O> {
  if (options.owner === undefined) return { options }
  const owners = registry?.owners
  const owner = owners?.get(options.owner)
  if (!owner) {
    const known = owners && owners.size ? [...owners.keys()].join(', ') : 'none declared'
    throw invalidOption('owner', `an owner of the runtime's registry (${known})`, options.owner)
  }
  const merged: O = { ...options }
  merged.toolsAllow ??= [...owner.allowedTools]
  if (owner.maxToolCalls !== undefined) merged.maxToolCalls ??= owner.maxToolCalls
  return owner.toolTimeoutMs === undefined
    ? { options: merged }
    : { options: merged, settings: { toolTimeoutMs: owner.toolTimeoutMs } }
}
