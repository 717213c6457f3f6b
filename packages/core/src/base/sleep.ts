import { onAbort } from './abort-watch.js'

/**
 * Waits `ms`, or less if `signal` aborts first. Resolves true when the full wait elapsed, false on
 * abort. Leaves no timer and no listener behind either way.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false)
    const timer = setTimeout(() => {
      stop()
      resolve(true)
    }, ms)
    const stop = signal
      ? onAbort(signal, () => {
          clearTimeout(timer)
          resolve(false)
        })
      : () => {}
  })
}
