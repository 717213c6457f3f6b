import type { Validator } from '@cfworker/json-schema'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { zodToJsonSchema } from 'zod-to-json-schema'
import type { Zod } from './peers.js'

// The modules Nestor needs only on some paths, as plain Node (and Bun) load them: required
// synchronously at their first use (options, histories and states are checked where they are
// given), so nothing is loaded at start-up. Bundlers, Workers, browsers and Deno get ./bundled.ts
// instead (the `#peers` import of package.json): no import.meta, no node: module there.
let require: NodeRequire | undefined
const load = (id: string): unknown => (require ??= createRequire(import.meta.url))(id)

let zodModule: Zod | undefined
/** zod v4, the very instance an app that imported `zod/v4` has: its ESM entry, required as ESM (Node >= 20.19). */
export function zod(): Zod {
  if (zodModule) return zodModule
  let mod: { z: Zod }
  try {
    mod = load(fileURLToPath(import.meta.resolve('zod/v4'))) as { z: Zod }
  } catch {
    // zod's CommonJS build, for a Node without require(esm).
    mod = load('zod/v4') as { z: Zod }
  }
  return (zodModule = mod.z)
}

/** @cfworker/json-schema's Validator. */
export const validatorClass = (): typeof Validator =>
  (load('@cfworker/json-schema') as typeof import('@cfworker/json-schema')).Validator

/** zod-to-json-schema, for zod v3 schemas. */
export const zodV3ToJsonSchema = (): typeof zodToJsonSchema =>
  (load('zod-to-json-schema') as typeof import('zod-to-json-schema')).zodToJsonSchema

/** node:vm, whose timeout interrupts a runaway regular expression (schema/bounded-patterns.ts). */
export const vm = (): typeof import('node:vm') | undefined => load('node:vm') as typeof import('node:vm')
