import type { OwnerDefaults } from '../contract/exec-types.js'
import type { Tool } from '../contract/types.js'
import type { OwnerKind } from './manifest-types.js'

/** An owner of a loaded manifest: its defaults and the tools it declared. */
export type DeclaredOwner = OwnerDefaults & { id: string; kind: OwnerKind; tools: readonly string[] }

/**
 * The tools and owners of a manifest, fixed at load: pass it as a Runtime's `registry`, and
 * `exec(input, { owner })` applies that owner's defaults. It cannot be changed after load, so
 * what was checked stays true.
 */
export class DeclaredRegistry {
  readonly owners: ReadonlyMap<string, DeclaredOwner>
  readonly #tools: ReadonlyMap<string, Tool>

  constructor(tools: ReadonlyMap<string, Tool>, owners: ReadonlyMap<string, DeclaredOwner>) {
    this.#tools = tools
    this.owners = owners
  }
  get(name: string): Tool | undefined {
    return this.#tools.get(name)
  }
  list(): Tool[] {
    return [...this.#tools.values()]
  }
}
