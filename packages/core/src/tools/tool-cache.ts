import type { ToolOutput } from '../contract/types.js'

/** Default bounds of a runtime's `cacheable` results. */
export const TOOL_CACHE_DEFAULTS = { maxEntries: 1000, ttlMs: 10 * 60_000 } as const

/**
 * The results of `cacheable` tools, shared by every exec of one runtime and bounded both ways:
 * an entry lives `ttlMs` (the tool's own `cacheable.ttlMs`, else the cache's), and past
 * `maxEntries` the least recently used entry goes. Both bounds are plain fields, so an app sets
 * them on `runtime.cache` (`runtime.cache.maxEntries = 10_000`).
 */
export class ToolCache {
  maxEntries: number = TOOL_CACHE_DEFAULTS.maxEntries
  ttlMs: number = TOOL_CACHE_DEFAULTS.ttlMs
  // A Map iterates in insertion order: re-inserting on a hit keeps the oldest use first.
  private readonly entries = new Map<string, { output: ToolOutput; expires: number }>()

  get size(): number {
    return this.entries.size
  }

  get(key: string, now = Date.now()): ToolOutput | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    if (entry.expires <= now) return undefined
    this.entries.set(key, entry)
    return entry.output
  }

  set(key: string, output: ToolOutput, ttlMs = this.ttlMs, now = Date.now()): void {
    if (!(ttlMs > 0) || !(this.maxEntries > 0)) return
    this.entries.delete(key)
    this.entries.set(key, { output, expires: now + ttlMs })
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break
      this.entries.delete(oldest)
    }
  }

  clear(): void {
    this.entries.clear()
  }
}
