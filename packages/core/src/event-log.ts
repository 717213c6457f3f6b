/**
 * An append-only log that any number of async iterators read from the beginning, so a consumer
 * that starts iterating after exec() returned misses nothing. Iterators are hand-written rather
 * than async generators: reading a buffered item costs one resolved promise, not a generator hop,
 * and one pending waiter promise is shared by all readers.
 */
export class EventLog<T> implements AsyncIterable<T> {
  private readonly items: T[] = []
  private closed = false
  private wake: (() => void) | undefined
  private waiting: Promise<void> | undefined

  push(item: T): void {
    // A closed log is final: a reader that finished must not be able to miss anything.
    if (this.closed) return
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

  private changed(): Promise<void> {
    this.waiting ??= new Promise<void>((resolve) => (this.wake = resolve))
    return this.waiting
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    let index = 0
    const read = (): IteratorResult<T> | undefined => {
      if (index === Infinity) return { value: undefined, done: true }
      if (index < this.items.length) return { value: this.items[index++] as T, done: false }
      if (this.closed) return { value: undefined, done: true }
      return undefined
    }
    const next = async (): Promise<IteratorResult<T>> => {
      for (;;) {
        const result = read()
        if (result) return result
        await this.changed()
      }
    }
    return {
      next: () => {
        const result = read()
        return result ? Promise.resolve(result) : next()
      },
      return: () => {
        index = Infinity
        return Promise.resolve({ value: undefined, done: true })
      },
    }
  }
}
