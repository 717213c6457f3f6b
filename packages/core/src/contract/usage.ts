import type { Usage } from './types.js'

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 })

/** Adds `b` into `a` in place (the loop's accumulators are its own objects). */
export function addUsage(a: Usage, b: Usage): Usage {
  a.input += b.input
  a.output += b.output
  a.cacheRead += b.cacheRead
  a.cacheWrite += b.cacheWrite
  a.total += b.total
  return a
}
