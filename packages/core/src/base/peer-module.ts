import { NestorError } from '../contract/errors.js'

// A module Nestor needs only on some paths (zod, the JSON Schema validator), loaded at its first
// use through a literal `import()` that bundlers see, follow and split. Its users are synchronous
// (options, histories and states are checked where they are given), so:
// - on Node with the package installed beside the code (an app not bundled), the first use
//   requires it synchronously, exactly when needed: nothing is loaded at start-up;
// - anywhere else (a bundle, a Worker, a browser), where no synchronous load exists, the import
//   starts when this module is evaluated, and is done before any request or handler runs.

/** How to find the package's ESM entry from the calling module (its `import.meta.resolve`). */
export type Resolve = () => string

export type PeerModule<T> = {
  /** The module, loaded synchronously on Node if not loaded yet. */
  now(): T
  /** The module if `now()` would return it, else undefined (nothing thrown). */
  peek(): T | undefined
  /** The module, loaded with the literal `import()`. */
  load(): Promise<T>
}

type NodeRequire = (id: string) => unknown
type Builtins = { getBuiltinModule?: (id: string) => unknown }

/** Node's `require` (an ESM entry is required as ESM: Node >= 20.19), or undefined off Node. */
function nodeRequire(from: string): NodeRequire | undefined {
  const builtins = (globalThis as { process?: Builtins }).process
  const mod = builtins?.getBuiltinModule?.('node:module') as { createRequire(path: string): NodeRequire } | undefined
  return mod?.createRequire(from)
}

/** The ESM file `resolve` names, when it exists on disk and Node can require it. */
function locate(resolve: Resolve): { require: NodeRequire; path: string } | undefined {
  try {
    const url = resolve()
    if (!url.startsWith('file:')) return undefined
    const require = nodeRequire(url)
    const { fileURLToPath } = require?.('node:url') as typeof import('node:url')
    return require && { require, path: fileURLToPath(url) }
  } catch {
    return undefined
  }
}

export function peerModule<T>(name: string, importer: () => Promise<T>, resolve: Resolve): PeerModule<T> {
  let value: T | undefined
  let loading: Promise<T> | undefined
  const load = (): Promise<T> => (loading ??= importer().then((module) => (value ??= module)))
  // Nothing on disk to require: start the import now (a bundle's own chunk, a Worker's module).
  if (!locate(resolve)) load().catch(() => undefined)
  return {
    load,
    peek() {
      try {
        return this.now()
      } catch {
        return undefined
      }
    },
    now() {
      if (value) return value
      const found = locate(resolve)
      if (found) {
        try {
          return (value = found.require(found.path) as T)
        } catch {
          // zod's CommonJS build, for a Node without require(esm) (before 20.19).
          return (value = found.require(name) as T)
        }
      }
      throw new NestorError(
        'no_runtime',
        `${name} is not loaded: it is not installed beside the code that needs it, or its import (started when that code was loaded, in a bundle, a Worker or a browser) has not finished, as it was needed in the same tick: start execs after an await, e.g. in a request handler`,
      )
    },
  }
}
