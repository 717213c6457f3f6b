/**
 * An append-only log that any number of async iterators read from the beginning, so a consumer
 * that starts iterating after exec() returned misses nothing. One pending waiter promise is shared
 * by all readers; appends cost one array push when nobody waits.
 */
export class EventLog<T> implements AsyncIterable<T> {
  private readonly items: T[] = []
  private closed = false
  private wake: (() => void) | undefined
  private waiting: Promise<void> | undefined

  push(item: T): void {
    this.items.push(item)
    if (this.wake) this.signal()
  }

  close(): void {
    this.closed = true
    if (this.wake) this.signal()
  }

  get size(): number {
    return this.items.length
  }

  private signal(): void {
    const wake = this.wake
    this.wake = undefined
    this.waiting = undefined
    wake?.()
  }

  private next(): Promise<void> {
    this.waiting ??= new Promise<void>((resolve) => (this.wake = resolve))
    return this.waiting
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let index = 0
    while (true) {
      while (index < this.items.length) yield this.items[index++] as T
      if (this.closed) return
      await this.next()
    }
  }
}
