import type { z } from 'zod/v4'

// zod's parse of a strict options object costs 50–100 µs in the first hundred calls of a process
// (7 µs once optimised): it walks every rule of the shape, given or not, and exec() checks its
// options on every call. The quick check walks only the keys that were given, calling the same
// predicates, and says "valid" or "ask zod": when it cannot vouch for an object (an unknown key, a
// value a rule refuses, a schema it does not understand), parseOptions runs zod for the verdict
// and the message, so every error is still zod's.

/** A zod definition, read without instanceof: a schema may come from another zod instance. */
export type Def = {
  type?: string
  shape?: Record<string, unknown>
  innerType?: unknown
  catchall?: unknown
  checks?: unknown[]
}
export const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def

/** The predicate of each leaf rule (`option.*` in option-schema.ts), by its zod schema. */
const predicates = new WeakMap<object, (value: unknown) => boolean>()

export function rememberPredicate(schema: z.ZodType, test: (value: unknown) => boolean): void {
  predicates.set(schema, test)
}

type Field = { optional: boolean; test: (value: unknown) => boolean }
type Fields = { byKey: Map<string, Field>; required: string[] }

/** Per object schema: its fields, or null when the quick check does not apply to it. */
const compiled = new WeakMap<object, Fields | null>()

function compile(schema: z.ZodType): Fields | null {
  const def = defOf(schema)
  // Only a plain strict object: no object-level checks, no catch-all other than "never".
  if (def?.type !== 'object' || !def.shape || (def.checks?.length ?? 0) > 0) return null
  if (defOf(def.catchall)?.type !== 'never') return null
  const byKey = new Map<string, Field>()
  const required: string[] = []
  for (const [key, field] of Object.entries(def.shape)) {
    const fieldDef = defOf(field)
    const optional = fieldDef?.type === 'optional'
    const inner = (optional ? fieldDef.innerType : field) as z.ZodType
    const test = predicates.get(inner) ?? ((value: unknown) => inner.safeParse(value).success)
    byKey.set(key, { optional, test })
    if (!optional) required.push(key)
  }
  return { byKey, required }
}

/** True when `value` surely passes `schema`; false means only "let zod decide". */
export function quickCheck(schema: z.ZodType, value: object): boolean {
  let fields = compiled.get(schema)
  if (fields === undefined) compiled.set(schema, (fields = compile(schema)))
  if (!fields) return false
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    const field = fields.byKey.get(key)
    if (!field) return false
    const given = record[key]
    if (given === undefined ? !field.optional : !field.test(given)) return false
  }
  for (const key of fields.required) if (record[key] === undefined) return false
  return true
}
