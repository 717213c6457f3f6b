import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

type ZodModule = typeof import('zod/v4')
export type Zod = ZodModule['z']

// zod is loaded at the first schema built, not when @nestor/core is imported: it costs about as
// much to load as an SDK, and a CLI or a cold start that imports Nestor should not pay it before
// the first runtime is made. Loaded synchronously (schemas are checked by synchronous calls). The
// ESM entry is required (require(esm), Node >= 20.19), so an app that imported `zod/v4` shares
// the very same instance; older Nodes fall back to zod's CommonJS build.
const load = createRequire(import.meta.url)
let loaded: Zod | undefined

export function zod(): Zod {
  if (loaded) return loaded
  let mod: ZodModule
  try {
    mod = load(fileURLToPath(import.meta.resolve('zod/v4'))) as ZodModule
  } catch {
    mod = load('zod/v4') as ZodModule
  }
  return (loaded = mod.z)
}

/** A value built at its first use, then kept (schemas: built once, and only when needed). */
export function lazy<T>(build: () => T): () => T {
  let value: { v: T } | undefined
  return () => (value ??= { v: build() }).v
}
