import { invalidOption } from '../contract/errors.js'

/** Checks the Runtime option `prices`: every entry keyed `provider:model`, every price a number >= 0. */
export function checkPrices(prices: unknown): void {
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices))
    throw invalidOption('prices', "an object of 'provider:model' → { input, output, cacheRead?, cacheWrite? }", prices)
  for (const [key, entry] of Object.entries(prices)) {
    if (!/^[^:]+:.+$/.test(key)) throw invalidOption('prices', `keys of the form 'provider:model'`, key)
    checkRates(`prices['${key}']`, entry, true)
    const tiers = (entry as { tiers?: unknown }).tiers
    if (tiers === undefined) continue
    if (!Array.isArray(tiers)) throw invalidOption(`prices['${key}'].tiers`, 'an array', tiers)
    tiers.forEach((tier: unknown, i) => checkRates(`prices['${key}'].tiers[${i}]`, tier, false))
  }
}

const RATE_KEYS = ['input', 'output', 'cacheRead', 'cacheWrite'] as const

function checkRates(path: string, entry: unknown, top: boolean): void {
  if (typeof entry !== 'object' || entry === null)
    throw invalidOption(path, '{ input, output } in dollars per million tokens', entry)
  const record = entry as Record<string, unknown>
  const allowed = new Set<string>([...RATE_KEYS, top ? 'tiers' : 'above'])
  for (const key of Object.keys(record))
    if (!allowed.has(key)) throw invalidOption(`${path}.${key}`, `one of ${[...allowed].join(', ')}`, key)
  for (const key of top ? RATE_KEYS : [...RATE_KEYS, 'above' as const]) {
    const value = record[key]
    const required = key === 'input' || key === 'output' || key === 'above'
    if (value === undefined && !required) continue
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw invalidOption(`${path}.${key}`, key === 'above' ? 'a token count >= 0' : 'a finite number >= 0', value)
  }
}
