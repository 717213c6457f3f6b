import type { ModelPrices, Usage, UsageCost } from './types.js'

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 })

/**
 * Adds `b` into `a` in place (the loop's accumulators are its own objects). Dollars add up only
 * while every part with tokens is priced: one unpriced part leaves the sum's `cost` absent, so a
 * total is never a partial figure that looks whole.
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const wasEmpty = a.total === 0 && a.cost === undefined
  a.input += b.input
  a.output += b.output
  a.cacheRead += b.cacheRead
  a.cacheWrite += b.cacheWrite
  a.total += b.total
  if (b.cost) {
    if (a.cost) addCost(a.cost, b.cost)
    else if (wasEmpty) a.cost = { ...b.cost }
  } else if (b.total > 0) delete a.cost
  return a
}

function addCost(a: UsageCost, b: UsageCost): void {
  a.input += b.input
  a.output += b.output
  a.cacheRead += b.cacheRead
  a.cacheWrite += b.cacheWrite
  a.total += b.total
}

/**
 * What `usage` costs at `prices` (dollars per million tokens). Cache tokens at their own rates
 * (the input rate when the model has none); a prompt above a tier's threshold at that tier's rates.
 */
export function costOf(usage: Usage, prices: ModelPrices): UsageCost {
  let rates: ModelPrices = prices
  if (prices.tiers) {
    const prompt = usage.input + usage.cacheRead + usage.cacheWrite
    let passed = -1
    for (const tier of prices.tiers)
      if (prompt > tier.above && tier.above > passed) [rates, passed] = [tier, tier.above]
  }
  const input = (usage.input * rates.input) / 1e6
  const output = (usage.output * rates.output) / 1e6
  const cacheRead = (usage.cacheRead * (rates.cacheRead ?? rates.input)) / 1e6
  const cacheWrite = (usage.cacheWrite * (rates.cacheWrite ?? rates.input)) / 1e6
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite }
}
