import { NestorError } from '../contract/errors.js'

/**
 * A run's reader that holds nothing (see `EventLog.bounded`): what a server streaming a run to a
 * client reads, so a stalled client cannot pin the run's events.
 */
export const boundedEvents: unique symbol = Symbol.for('nestor.boundedEvents')

/** The latest events a run keeps for readers that come late (`retention.replayWindow`'s default). */
const DEFAULT_REPLAY_WINDOW = 5000

/**
 * An append-only stream of one run's events, numbered by position (1 = the first). It keeps the
 * latest `window` events, plus what the app's own iterators (`for await` over the run, in this
 * process) have not read yet: they never miss an event, and one that returns or is cancelled
 * holds nothing from then on. Readers that face the network (`bounded()`: web streams and
 * `runtime.attach`) hold nothing: one that falls more than `window` events behind the newest
 * fails with `events_expired` at its next read rather than skipping, so a stalled client cannot
 * keep a run's past in memory. With `window` 0 (retention off) the events before the first
 * iterator starts are kept too, up to DEFAULT_REPLAY_WINDOW of them. The root run's log is also
 * what `runtime.attach` reads (run-registry.ts), so the replay window is one copy, not two.
 *
 * Iterators are hand-written rather than async generators: reading a buffered item costs one
 * resolved promise, not a generator hop, and one pending waiter promise is shared by all readers.
 */
export class EventLog<T> implements AsyncIterable<T> {
  private items: T[] = []
  /** Index in `items` of the oldest event still kept (the slots before it are dropped). */
  private offset = 0
  /** Position of the last event before this log's own: > 0 when it continues a paused run's log. */
  private base = 0
  /** Where each of the app's iterators reads next: events from there on are kept for it. */
  private readonly cursors = new Set<{ next: number }>()
  private iterated = false
  /** Callbacks waiting for the next push or the close: parked iterators and `changed()`. */
  private parked: (() => void)[] = []
  private waiting: Promise<void> | undefined
  /** Position of the last event pushed (0 before any). */
  end = 0
  closed = false
  /** Sees every event as it is pushed: a batch's `onEvent` (its own stream, nested execs included). */
  onPush: ((item: T) => void) | undefined
  /** Synchronous readers (`subscribe`): called at each push, holding nothing. */
  private subscribers: ((item: T) => void)[] = []

  constructor(
    private readonly window = DEFAULT_REPLAY_WINDOW,
    /** Names the run in `events_expired` errors. */
    private readonly label = 'this run',
  ) {}

  push(item: T): void {
    // A closed log is final: a reader that finished must not be able to miss anything.
    if (this.closed) return
    this.items.push(item)
    this.end++
    if (this.items.length - this.offset > this.window) this.trim()
    if (this.parked.length > 0) this.signal()
    this.onPush?.(item)
    for (const subscriber of this.subscribers) subscriber(item)
  }

  /**
   * Calls `subscriber` with every event still kept (from the first when called right after the
   * run opened), then with each event as it is pushed, synchronously; returns the unsubscribe.
   * It holds no cursor: nothing is kept for it, and no promise is made per event.
   */
  subscribe(subscriber: (item: T) => void): () => void {
    for (let position = this.first; position <= this.end; position++) subscriber(this.at(position) as T)
    if (this.closed) return () => {}
    // Copy on write: a push in progress keeps the list it started with.
    this.subscribers = [...this.subscribers, subscriber]
    return () => {
      this.subscribers = this.subscribers.filter((s) => s !== subscriber)
    }
  }

  /**
   * Continues the positions of a previous log of the same exec (a paused run `runtime.resume()`
   * continues): its kept events stay readable by position and new events count on from its end,
   * so a client's Last-Event-ID stays valid. Iterators of this log start at its own first event.
   */
  continueFrom(previous: EventLog<T>): void {
    if (this.end !== 0 || this.closed) return
    this.items = previous.items.slice(previous.offset)
    this.offset = 0
    this.end = this.base = previous.end
    if (this.items.length > this.window) this.trim()
  }

  close(): void {
    this.closed = true
    this.subscribers = []
    this.signal()
  }

  /** Position of the oldest event still kept. */
  get first(): number {
    return this.end - (this.items.length - this.offset) + 1
  }

  /** The event at a position, or undefined when it is not (or no longer) kept. */
  at(position: number): T | undefined {
    const first = this.first
    if (position < first || position > this.end) return undefined
    return this.items[this.offset + position - first]
  }

  /** Resolves at the next push or at close. */
  changed(): Promise<void> {
    this.waiting ??= new Promise<void>((resolve) =>
      this.parked.push(() => {
        this.waiting = undefined
        resolve()
      }),
    )
    return this.waiting
  }

  /** Drops the oldest events beyond the window that no iterator of the app still has to read. */
  private trim(): void {
    let keepFrom = this.end - this.window + 1
    if (this.window === 0 && !this.iterated) keepFrom = Math.max(this.base + 1, this.end - DEFAULT_REPLAY_WINDOW + 1)
    for (const cursor of this.cursors) if (cursor.next < keepFrom) keepFrom = cursor.next
    let first = this.first
    while (first < keepFrom) {
      this.items[this.offset++] = undefined as T
      first++
    }
    // Compact now and then rather than shift() per event (which copies the array each time).
    if (this.offset > 1024 && this.offset * 2 > this.items.length) {
      this.items = this.items.slice(this.offset)
      this.offset = 0
    }
  }

  private signal(): void {
    if (this.parked.length === 0) return
    const parked = this.parked
    this.parked = []
    for (const retry of parked) retry()
  }

  /** The app's own reader: every event from this log's first, kept until it has read them. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.reader(true)
  }

  /** A reader that holds nothing: it fails with `events_expired` once it falls out of the window. */
  bounded(): AsyncIterator<T> {
    return this.reader(false)
  }

  private reader(holds: boolean): AsyncIterator<T> {
    const cursor = { next: this.base + 1 }
    let done = false
    this.iterated = true
    if (holds) this.cursors.add(cursor)
    const finish = (): IteratorResult<T> => {
      done = true
      // A reader that stops (returns, is cancelled, fails) keeps nothing alive.
      if (this.cursors.delete(cursor)) this.trim()
      return { value: undefined, done: true }
    }
    const read = (): IteratorResult<T> | undefined => {
      if (done) return { value: undefined, done: true }
      if (cursor.next <= this.end) {
        const first = this.first
        if (cursor.next < first) {
          finish()
          throw expired(this.label, cursor.next, first, this.end)
        }
        const value = this.items[this.offset + cursor.next - first] as T
        cursor.next++
        // Events this reader held past the window can go once it has read them.
        if (holds && this.items.length - this.offset > this.window) this.trim()
        return { value, done: false }
      }
      if (this.closed) return finish()
      return undefined
    }
    // A reader that caught up parks one callback; the next push or close calls it. This is the
    // per-event path of `for await`, so it is a plain promise, not an async function's.
    const wait = (): Promise<IteratorResult<T>> =>
      new Promise<IteratorResult<T>>((resolve, reject) => {
        const retry = () => {
          try {
            const result = read()
            if (result) resolve(result)
            else this.parked.push(retry)
          } catch (error) {
            reject(error as Error)
          }
        }
        this.parked.push(retry)
      })
    return {
      next: () => {
        try {
          const result = read()
          return result ? Promise.resolve(result) : wait()
        } catch (error) {
          return Promise.reject(error as Error)
        }
      },
      return: () => Promise.resolve(finish()),
    }
  }
}

export const expired = (label: string, position: number, first: number, end: number): NestorError =>
  new NestorError(
    'events_expired',
    `events of ${label} from position ${position} are no longer kept (the replay window holds ${first}..${end}); ` +
      `iterate the run itself to read every event, raise retention.replayWindow, or attach from ${first - 1} or later`,
  )
