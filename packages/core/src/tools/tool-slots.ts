import { onAbort } from '../base/abort-watch.js'

/**
 * Per-tool `concurrency` limits, one set per runtime: every exec and batch of that runtime waits
 * for a slot, so at most N bodies of a tool run at once (a source's admission limit, not local width).
 */
export class ToolSlots {
  private readonly running = new Map<string, number>()
  private readonly waiting = new Map<string, (() => void)[]>()

  /** Resolves with a release function, or with undefined when `signal` aborts while waiting. */
  async acquire(tool: string, limit: number | undefined, signal: AbortSignal): Promise<(() => void) | undefined> {
    if (limit === undefined) return () => {}
    if (signal.aborted) return undefined
    if ((this.running.get(tool) ?? 0) >= limit) {
      const granted = await new Promise<boolean>((resolve) => {
        const queue = this.waiting.get(tool) ?? []
        this.waiting.set(tool, queue)
        const wake = () => {
          unwatch()
          resolve(true)
        }
        // An abort leaves the queue: the slot goes to the next waiter instead.
        const unwatch = onAbort(signal, () => {
          queue.splice(queue.indexOf(wake), 1)
          resolve(false)
        })
        queue.push(wake)
      })
      if (!granted) return undefined
    } else this.running.set(tool, (this.running.get(tool) ?? 0) + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      // A waiter takes the slot over directly (the running count stays), else the count drops.
      const next = this.waiting.get(tool)?.shift()
      if (next) next()
      else this.running.set(tool, (this.running.get(tool) ?? 1) - 1)
    }
  }
}
