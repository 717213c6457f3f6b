import { option, type OptionRule, type OptionShape } from '../options/option-schema.js'

// The field-by-field check both manifest forms share: every problem collected, each naming its
// place, and nothing in a manifest able to throw instead (keys named like Object.prototype
// members, values nested deep enough to overflow a recursive walk).

/** How deep a schema or control envelope may nest: far past any real one, far short of the stack. */
export const MAX_MANIFEST_DEPTH = 64

/** An object (a JSON Schema, a control envelope) nested at most MAX_MANIFEST_DEPTH levels. */
export const nestedObject = (): OptionRule<Record<string, unknown>> =>
  option.custom(
    `an object nested at most ${MAX_MANIFEST_DEPTH} levels deep`,
    (v) => option.plainObject().test(v) && !deeperThan(v, MAX_MANIFEST_DEPTH),
  )

/** The fields both forms spell alike. */
export const toolFields = (): OptionShape => ({
  callable: option.custom<string>("'module#export'", (v) => typeof v === 'string' && /^[^#]+#[^#]+$/.test(v)),
  description: option.string(),
  cacheable: option.boolean().optional(),
  control: nestedObject().optional(),
})

/**
 * Adds a problem per bad field of `value` and returns the bad keys (unknown, mistyped or missing);
 * undefined when `value` is not even an object.
 */
export function fields(shape: OptionShape, value: unknown, at: string, problems: string[]): Set<string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${at}: expected an object, got ${describe(value)}`)
    return undefined
  }
  const bad = new Set<string>()
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    // Own keys only: `constructor` or `__proto__` in a manifest is an unknown key, not a rule.
    const rule = Object.hasOwn(shape, key) ? shape[key] : undefined
    if (!rule) problems.push(`${at}, field ${key}: unknown key (known: ${Object.keys(shape).join(', ')})`)
    else if (!rule.test(record[key]))
      problems.push(`${at}, field ${key}: expected ${rule.expected}, got ${describe(record[key])}`)
    else continue
    bad.add(key)
  }
  for (const [key, rule] of Object.entries(shape))
    if (!rule.isOptional && !Object.hasOwn(record, key)) {
      problems.push(`${at}, field ${key}: missing`)
      bad.add(key)
    }
  return bad
}

/** `value` without its bad keys, so the checks after this one do not trip on them again. */
export function withoutKeys(value: object, bad: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !bad.has(key)))
}

/** Whether `value` nests objects or arrays more than `limit` levels (walked without recursion). */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [node, depth] = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    if (depth > limit) return true
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

export function describe(value: unknown): string {
  // Too deep to print (or cyclic, through YAML aliases): JSON.stringify would overflow.
  if (deeperThan(value, MAX_MANIFEST_DEPTH))
    return `${Array.isArray(value) ? 'an array' : 'an object'} nested deeper than that`
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text
}
