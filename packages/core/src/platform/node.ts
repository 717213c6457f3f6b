import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash, createHmac, randomFillSync, randomUUID as nodeRandomUUID, timingSafeEqual } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import type { AsyncContext, ContextStore } from './platform.js'

// Node, Bun, Deno and Workers (`nodejs_compat`): core's few platform needs on node: modules. A
// browser build of core (bundle/browser/, scripts/bundle.mjs) takes ./web.ts instead.

export const ContextStoreClass: new <T>() => ContextStore<T> = AsyncLocalStorage

/** Node 24's AsyncContextFrame needs no promise hooks (opt-in on 22, off with a flag). */
function detectAsyncContext(): AsyncContext {
  const flags = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)]
  if (flags.includes('--no-async-context-frame')) return 'hooked'
  if (flags.includes('--experimental-async-context-frame')) return 'free'
  return Number(process.versions.node.split('.')[0]) >= 24 ? 'free' : 'hooked'
}
export const asyncContext: AsyncContext = detectAsyncContext()

// Random bytes are drawn a pool at a time, one call per 256 ids of 16 bytes.
const pool = Buffer.alloc(4096)
let offset = pool.length

/** `bytes` random bytes (at most 4096) as hex. */
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  const hex = pool.toString('hex', offset, offset + bytes)
  offset += bytes
  return hex
}

export const randomUUID = (): string => nodeRandomUUID()

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')

export const hmacSha256Hex = (secret: string, text: string): string =>
  createHmac('sha256', secret).update(text).digest('hex')

/** Whether two hex digests are the same bytes, in constant time. */
export function sameDigest(got: string, expected: string): boolean {
  const a = Buffer.from(got, 'hex')
  const b = Buffer.from(expected, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Lifts Node's listener limit (and its MaxListenersExceededWarning) from a signal Nestor shares. */
export const unlimitedListeners = (signal: AbortSignal): void => setMaxListeners(0, signal)

/** Where Node reports warnings (stderr, and `process.on('warning')`). */
export const warn = (message: string, code?: string): void =>
  code === undefined ? process.emitWarning(message) : process.emitWarning(message, { code })

export const base64Bytes = (text: string): Uint8Array => Buffer.from(text, 'base64')
