import { peerModule } from './peer-module.js'

type ZodModule = typeof import('zod/v4')
export type Zod = ZodModule['z']

// zod is loaded at the first schema built, not when @nestor/core is imported: it costs about as
// much to load as an SDK, and a CLI or a cold start that imports Nestor should not pay it before
// the first runtime is made. An app that imported `zod/v4` shares the very same instance (its ESM
// entry is the one loaded); a bundle includes it through the literal import (peer-module.ts).
const zodModule = peerModule(
  'zod/v4',
  () => import('zod/v4'),
  () => import.meta.resolve('zod/v4'),
)

export function zod(): Zod {
  return zodModule.now().z
}

/** zod when it is loaded or can be loaded now; undefined in a bundle's first tick. */
export function zodIfLoadable(): Zod | undefined {
  return zodModule.peek()?.z
}

/** A value built at its first use, then kept (schemas: built once, and only when needed). */
export function lazy<T>(build: () => T): () => T {
  let value: { v: T } | undefined
  return () => (value ??= { v: build() }).v
}
