import { zod as loadZod } from '#peers'
import type { Zod } from '../peers/peers.js'

export type { Zod }

// zod is loaded at the first schema built, not when @nestor/core is imported: it costs about as
// much to load as an SDK, and a CLI or a cold start that imports Nestor should not pay it before
// the first runtime is made (on Node; a bundle includes it, see peers/).
export const zod = (): Zod => loadZod()

/** A value built at its first use, then kept (schemas: built once, and only when needed). */
export function lazy<T>(build: () => T): () => T {
  let value: { v: T } | undefined
  return () => (value ??= { v: build() }).v
}
