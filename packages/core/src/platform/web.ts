import type { AsyncContext, ContextStore } from './platform.js'
import { toHex } from './sha256.js'

// Browsers: no node: module. Random bytes come from Web Crypto (`crypto.getRandomValues`, in
// every page, secure or not), digests from ./sha256.ts, and there is no AsyncLocalStorage: a
// store holds only while its callback runs synchronously. The browser build (scripts/bundle.mjs)
// takes this file wherever core imports ./node.ts.

export { sha256Hex, hmacSha256Hex } from './sha256.js'

/** A store seen by `fn` until it returns: without AsyncLocalStorage nothing survives an await. */
class SyncStore<T> implements ContextStore<T> {
  private current: T | undefined
  run<R>(store: T, fn: () => R): R {
    const before = this.current
    this.current = store
    try {
      return fn()
    } finally {
      this.current = before
    }
  }
  getStore(): T | undefined {
    return this.current
  }
  exit<R>(fn: () => R): R {
    return this.run(undefined as T, fn)
  }
  disable(): void {}
}
export const ContextStoreClass: new <T>() => ContextStore<T> = SyncStore

export const asyncContext: AsyncContext = 'none'

const random = (bytes: number): Uint8Array => globalThis.crypto.getRandomValues(new Uint8Array(bytes))

/** `bytes` random bytes (at most 65536) as hex. */
export const randomHex = (bytes: number): string => toHex(random(bytes))

/** A version 4 UUID (`crypto.randomUUID` exists only in secure contexts). */
export function randomUUID(): string {
  const bytes = random(16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = toHex(bytes)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** Whether two hex digests are the same, in time that does not depend on where they differ. */
export function sameDigest(got: string, expected: string): boolean {
  const a = got.toLowerCase()
  const b = expected.toLowerCase()
  let differ = a.length ^ b.length
  for (let i = 0; i < b.length; i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return differ === 0 && /^(?:[0-9a-f]{2})+$/.test(b)
}

/** Browsers put no limit on a signal's listeners. */
export const unlimitedListeners = (_signal: AbortSignal): void => {}

export const warn = (message: string, code?: string): void =>
  console.warn(code === undefined ? message : `(${code}) ${message}`)

/** The bytes of `text`, as far as whole base64 quads go (an image header is all core reads). */
export function base64Bytes(text: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text.slice(0, text.length - (text.length % 4))), (c) => c.charCodeAt(0))
  } catch {
    return new Uint8Array()
  }
}
