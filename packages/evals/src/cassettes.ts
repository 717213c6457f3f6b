import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { NestorError, type Provider } from '@nestor/core'
import { replay } from '@nestor/providers/testing'
import { pathNote } from './paths.js'
import type { CassetteMode, CassetteOptions } from './types.js'

/**
 * How a case reaches its model: through `provider`, or not at all (`missing` says why). `scoped`:
 * the provider is a cassette, installed for the task's execs with core's `withProvider`.
 */
export type CaseCassette = {
  provider: Provider | undefined
  wrap(p: Provider): Provider
  missing?: string
  scoped?: boolean
  /**
   * The secrets of the case's execs, filled as they open (core's `withSecretsListener`): the
   * recorder redacts them from cassettes and keys, the report from everything it keeps.
   */
  secrets: Set<string>
}

export type Cassettes = { dir: string; mode: CassetteMode }

/** Reads the `cassettes` option; in replay mode a missing folder fails here, before any case. */
export function cassettesOf(option: string | CassetteOptions | undefined): Cassettes | undefined {
  if (option === undefined) return undefined
  const { dir, mode = 'auto' } = typeof option === 'string' ? { dir: option } : option
  if (typeof dir !== 'string' || dir === '' || !['auto', 'replay', 'record'].includes(mode))
    throw new NestorError(
      'invalid_options',
      "evaluate: cassettes is a folder, or { dir, mode: 'auto' | 'replay' | 'record' }",
    )
  if (mode === 'replay' && !existsSync(dir))
    throw new NestorError(
      'invalid_options',
      `evaluate: the cassette folder ${pathNote(dir)} does not exist (replay mode): record it once with a live provider (mode 'auto' or 'record'), or fix the path`,
    )
  return { dir, mode }
}

/**
 * One case's provider: its own folder of cassettes (`dir/<case id>`), replayed strictly when it
 * exists, recorded live from `live` when it does not (or in record mode).
 */
export function caseCassette(cassettes: Cassettes | undefined, id: string, live: Provider | undefined): CaseCassette {
  const found = new Set<string>()
  if (!cassettes) return { provider: live, wrap: (p) => p, secrets: found }
  const dir = join(cassettes.dir, id)
  const recorded = existsSync(dir)
  const secrets = () => [...found]
  if (cassettes.mode === 'record' || (cassettes.mode === 'auto' && !recorded)) {
    if (!live)
      return {
        provider: undefined,
        wrap: (p) => p,
        missing: `no cassette for case ${id} in ${pathNote(cassettes.dir)}, and no live provider to record it (evaluate({ provider }))`,
        secrets: found,
      }
    return {
      provider: replay({ provider: live, dir, mode: 'record', secrets }),
      wrap: (p) => replay({ provider: p, dir, mode: 'record', secrets }),
      scoped: true,
      secrets: found,
    }
  }
  if (!recorded)
    return {
      provider: undefined,
      wrap: (p) => p,
      missing: `no cassette for case ${id} in ${pathNote(cassettes.dir)} (replay mode)`,
      secrets: found,
    }
  // Keys are of redacted requests: the replay needs the same secrets to find its recordings.
  const offline = replay({ dir, mode: 'strict', secrets })
  return { provider: offline, wrap: () => offline, scoped: true, secrets: found }
}
