import type { Usage } from '@nestor/core'

/**
 * OpenAI counts cached prompt tokens inside the prompt total; Nestor keeps them apart, so
 * `input` is the uncached part and `cacheRead` the cached part (their sum is what OpenAI bills
 * as input). `total` is OpenAI's own total.
 */
export function toUsage(input: number, output: number, cached: number, total?: number, cacheWrite = 0): Usage {
  const uncached = Math.max(0, input - cached - cacheWrite)
  return { input: uncached, output, cacheRead: cached, cacheWrite, total: total ?? input + output }
}
