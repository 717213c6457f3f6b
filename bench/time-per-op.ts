import { performance } from 'node:perf_hooks'

// How every micro-benchmark is timed and printed.

export type MicroResult = { name: string; perOp: string; note: string }

/**
 * Best time per op over `batches` calls of `fn` (each call does `ops` ops), after warm-up calls.
 * The minimum, not the median: on a shared machine every disturbance only adds time.
 */
export async function timePerOp(fn: () => unknown | Promise<unknown>, ops: number, batches = 9): Promise<number> {
  for (let i = 0; i < 3; i++) await fn()
  let best = Infinity
  for (let i = 0; i < batches; i++) {
    const start = performance.now()
    await fn()
    best = Math.min(best, (performance.now() - start) / ops)
  }
  return best
}

export const formatTime = (ms: number): string =>
  ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.001 ? `${(ms * 1000).toFixed(2)} µs` : `${(ms * 1e6).toFixed(0)} ns`
