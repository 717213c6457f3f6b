import type { ExecResult } from '@nestor/core'

/** What a text scorer reads: the typed output as JSON when the exec had one, else the final text. */
export function answerText(result: ExecResult): string {
  return result.output === undefined ? result.text : JSON.stringify(result.output)
}

/** Deep equality of JSON values (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/** Every key given in `expected` has the same value in `actual` (nested objects alike). */
export function containsJson(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) return sameJson(actual, expected)
  if (typeof actual !== 'object' || actual === null) return false
  return Object.entries(expected).every(([k, v]) => containsJson((actual as Record<string, unknown>)[k], v))
}
