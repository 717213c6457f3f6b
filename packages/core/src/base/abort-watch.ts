import { unlimitedListeners } from '../platform/node.js'

/**
 * Every place in Nestor that reacts to an abort goes through `onAbort`, which registers ONE real
 * listener per signal and fans out to the callbacks itself. Eleven parallel tool calls, a tool that
 * opens many child execs, or many execs sharing the caller's signal therefore never add more than
 * one listener to any signal, so Node never prints MaxListenersExceededWarning because of Nestor.
 */
type Watch = { callbacks: Set<() => void>; listener: () => void }
const watchers = new WeakMap<AbortSignal, Watch>()

/**
 * Calls `callback` once when `signal` aborts (at once if it already has). Returns the unsubscribe.
 * The last unsubscribe also removes the real listener: a caller's long-lived signal shared by
 * thousands of execs keeps none of them.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback()
    return () => {}
  }
  let watch = watchers.get(signal)
  if (!watch) {
    const callbacks = new Set<() => void>()
    const listener = () => {
      watchers.delete(signal)
      for (const fn of [...callbacks]) fn()
    }
    watch = { callbacks, listener }
    watchers.set(signal, watch)
    signal.addEventListener('abort', listener, { once: true })
  }
  const { callbacks, listener } = watch
  const entry = () => callback()
  callbacks.add(entry)
  return () => {
    if (!callbacks.delete(entry) || callbacks.size > 0) return
    if (watchers.get(signal)?.listener === listener) watchers.delete(signal)
    signal.removeEventListener('abort', listener)
  }
}

/**
 * An AbortController for Nestor's own use. Its signal is handed to tool bodies and provider SDKs,
 * which add listeners of their own (one per fetch, per child exec...): no limit applies to it.
 */
export function internalController(): AbortController {
  const controller = new AbortController()
  unlimitedListeners(controller.signal)
  return controller
}

/**
 * An AbortController made only when its signal is first read: creating a signal is costly and most
 * tool bodies never read theirs (docs/architecture.md, "Performance notes"). An abort before the
 * first read gives a signal that is already aborted, with the same reason.
 */
export class LazyAbort {
  private controller: AbortController | undefined
  private reason: unknown
  private aborted = false

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = internalController()
      if (this.aborted) this.controller.abort(this.reason)
    }
    return this.controller.signal
  }

  abort(reason: unknown): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    this.controller?.abort(reason)
  }
}

/** What `raceAbort` settles with when the signal wins: one sentinel for every race in Nestor. */
export const ABORTED: unique symbol = Symbol('aborted')

/**
 * Settles with `work`, or with `ABORTED` as soon as `signal` aborts: an abort never waits for code
 * that ignores its signal (a provider stream, a hook, a journal store). The abandoned work's late
 * outcome is swallowed, never an unhandled rejection. Listens through `onAbort` (one listener).
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    work.catch(() => {})
    return Promise.resolve(ABORTED)
  }
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const stop = onAbort(signal, () => resolve(ABORTED))
    work.then(
      (value) => {
        stop()
        resolve(value)
      },
      (error: unknown) => {
        stop()
        reject(error)
      },
    )
  })
}

/** `raceAbort` that rejects with `reason()` when the signal wins. */
export function untilAbort<T>(work: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  return raceAbort(work, signal).then((value) => {
    if (value === ABORTED) throw reason()
    return value
  })
}
