/**
 * A single-consumer async queue: the producer pushes synchronously, the consumer pulls with
 * `for await`. Adapters push the events of an SDK chunk without a generator hop per event; a
 * buffered item costs the consumer one resolved promise. Items are released as they are read.
 */
export class PushStream<T> implements AsyncIterable<T>, AsyncIterator<T> {
  private items: T[] = []
  private head = 0
  private ended = false
  private waiter: ((result: IteratorResult<T>) => void) | undefined

  push(item: T): void {
    if (this.ended) return
    const waiter = this.waiter
    if (waiter) {
      this.waiter = undefined
      waiter({ value: item, done: false })
    } else this.items.push(item)
  }

  end(): void {
    this.ended = true
    const waiter = this.waiter
    if (waiter && this.head >= this.items.length) {
      this.waiter = undefined
      waiter({ value: undefined, done: true })
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T
      this.items[this.head++] = undefined as T
      if (this.head === this.items.length) {
        this.items = []
        this.head = 0
      }
      return Promise.resolve({ value, done: false })
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true })
    return new Promise((resolve) => (this.waiter = resolve))
  }

  return(): Promise<IteratorResult<T>> {
    this.ended = true
    this.items = []
    this.head = 0
    return Promise.resolve({ value: undefined, done: true })
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this
  }
}
