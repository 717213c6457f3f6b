import type { Runtime } from '@nestor/core'

/**
 * A map whose entries each name a run and last as long as the runtime keeps that run: entries of
 * dropped runs go at the next sweep, which runs when the map doubled since the last one, so it
 * holds at most about twice the runs the runtime keeps, at O(1) per entry set.
 */
export class RunMap<V> {
  private readonly entries = new Map<string, { execId: string; value: V }>()
  private sweepAt = 64

  constructor(private readonly runtime: Runtime) {}

  set(key: string, execId: string, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, { execId, value })
    if (this.entries.size < this.sweepAt) return
    for (const [k, entry] of this.entries)
      if (!this.runtime.attach(entry.execId, { after: 'latest' })) this.entries.delete(k)
    this.sweepAt = Math.max(64, this.entries.size * 2)
  }

  get(key: string): { execId: string; value: V } | undefined {
    return this.entries.get(key)
  }

  keys(): string[] {
    return [...this.entries.keys()]
  }
}
