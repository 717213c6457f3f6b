import { Validator } from '@cfworker/json-schema'
import { z } from 'zod/v4'
import { zodToJsonSchema } from 'zod-to-json-schema'
import type { Zod } from './peers.js'

// The modules Nestor needs only on some paths, for a bundle, a Worker, a browser or Deno (the
// `#peers` import of package.json picks this file under the `module`, `browser`, `worker`,
// `workerd` and `deno` conditions): plain imports the bundler includes, so the synchronous checks
// have them at hand with nothing beside the bundle. Node loads them at first use (./node.ts).

export const zod = (): Zod => z
export const validatorClass = (): typeof Validator => Validator
export const zodV3ToJsonSchema = (): typeof zodToJsonSchema => zodToJsonSchema

/** node:vm where the runtime has it (Node, Deno, Bun); undefined in a Worker or a browser. */
export const vm = (): typeof import('node:vm') | undefined =>
  (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:vm') as
    typeof import('node:vm') | undefined
