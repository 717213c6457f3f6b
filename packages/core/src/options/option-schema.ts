import type { z } from 'zod/v4'
import { NestorError, invalidOption } from '../contract/errors.js'
import { OptionRule, OptionsSchema, type OptionShape } from './option-rule.js'
import { lazy, zod } from '../base/zod-lazy.js'

// Options objects are checked against strict schemas once per constructor, factory or exec call
// (never per event): a misspelt key or a wrong value fails `invalid_options` where it was given,
// before any request, instead of being ignored or failing later as something else. Rules are plain
// predicates (option-rule.ts); zod is loaded only to word an error, so right options load none.

/** A zod definition, read without instanceof: a schema may come from another zod instance. */
type Def = { type?: string; shape?: Record<string, unknown>; innerType?: unknown }
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def

/** A leaf rule: `expected` completes "invalid option {key}: expected …, got …". */
const rule = <T>(expected: string, test: (value: unknown) => boolean): OptionRule<T> =>
  new OptionRule<T>(expected, test, false, () => zod().custom<T>(test, { error: expected }))

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)

/** Builders for option rules, with the messages `invalidOption` prints. */
export const option = {
  string: () => rule<string>('a string', (v) => typeof v === 'string'),
  nonEmptyString: (what = 'a non-empty string') => rule<string>(what, (v) => typeof v === 'string' && v !== ''),
  boolean: () => rule<boolean>('a boolean', (v) => typeof v === 'boolean'),
  function: <F>() => rule<F>('a function', (v) => typeof v === 'function'),
  positiveInt: () => rule<number>('a positive integer', (v) => isInt(v) && v >= 1),
  /** A positive integer, or Infinity for "no limit". */
  positiveIntOrInfinity: () =>
    rule<number>('a positive integer, or Infinity', (v) => v === Infinity || (isInt(v) && v >= 1)),
  nonNegativeInt: () => rule<number>('an integer >= 0', (v) => isInt(v) && v >= 0),
  nonNegative: () => rule<number>('a number >= 0', (v) => typeof v === 'number' && !Number.isNaN(v) && v >= 0),
  oneOf: <const T extends readonly string[]>(values: T) =>
    rule<T[number]>(`one of ${values.map((v) => `'${v}'`).join(', ')}`, (v) => values.includes(v as string)),
  stringList: (what = 'an array of strings') =>
    rule<string[]>(what, (v) => Array.isArray(v) && v.every((s) => typeof s === 'string')),
  plainObject: () =>
    rule<Record<string, unknown>>('an object', (v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  custom: rule,
  /** A nested strict object of rules (`hooks: option.object({ … })`): its keys are checked like the top's. */
  object: <S extends OptionShape>(shape: S): OptionRule<{ [K in keyof S]: S[K]['type'] }> => {
    const nested = new OptionsSchema(shape)
    return new OptionRule(
      'an object',
      (v) => nested.accepts(v),
      false,
      () => nested.zod(),
    )
  },
  /** A rule only zod can say (a union, a refinement): checked by zod, which it loads. */
  zod: <T>(build: () => z.ZodType<T>): OptionRule<T> => {
    const schema = lazy(build)
    return new OptionRule<T>('a valid value', (v) => schema().safeParse(v).success, false, schema)
  },
}

/**
 * A strict options schema from a shape function, built at its first check: a package that defines
 * its options this way loads no zod when it is imported, nor when the options it is given are right.
 * Pass the result to `parseOptions`.
 */
export { OptionRule, OptionsSchema, type OptionShape }

export function strictOptions<S extends OptionShape>(shape: () => S): () => OptionsSchema {
  return lazy(() => new OptionsSchema(shape()))
}

/**
 * Checks `value` against a strict object schema and throws the first problem as `invalid_options`:
 * an unknown key is named with the nearest valid one, a bad value with what was expected.
 */
export function parseOptions(
  schemaOrBuild: OptionsSchema | z.ZodType | (() => OptionsSchema | z.ZodType),
  value: unknown,
  label = 'options',
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidOption(label, 'an object', value)
  const given = typeof schemaOrBuild === 'function' ? schemaOrBuild() : schemaOrBuild
  if (given instanceof OptionsSchema && given.accepts(value)) return
  const schema = given instanceof OptionsSchema ? given.zod() : given
  const parsed = schema.safeParse(value)
  if (parsed.success) return
  const issue = parsed.error.issues[0]
  if (!issue) throw new NestorError('invalid_options', `invalid ${label}`)
  const at = issue.path.map(String)
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? ''
    const known = keysAt(schema, issue.path)
    const nearest = closest(key, known)
    const name = [...at, key].join('.')
    throw new NestorError(
      'invalid_options',
      `unknown option ${name}${nearest ? `: did you mean ${[...at, nearest].join('.')}?` : ''} (valid: ${known.join(', ')})`,
    )
  }
  // zod words its own "Invalid option: expected …": only the part after "expected" completes ours.
  const expected = issue.message.replace(/^Invalid (?:input|option|type|value): expected /i, '')
  throw invalidOption(at.join('.') || label, expected, valueAt(value, issue.path))
}

/**
 * The keys a strict object accepts at `path` inside `schema` (through optional wrappers). Read from
 * the schemas' definitions, not by instanceof: a package's schema may come from another zod
 * instance (ESM and CommonJS builds) than core's.
 */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: Def | undefined = unwrap(defOf(schema))
  for (const key of path) node = node?.type === 'object' ? unwrap(defOf(node.shape?.[String(key)])) : undefined
  return node?.type === 'object' && node.shape ? Object.keys(node.shape) : []
}

function unwrap(def: Def | undefined): Def | undefined {
  let node = def
  while (node && (node.type === 'optional' || node.type === 'nullable')) node = defOf(node.innerType)
  return node
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root
  for (const key of path)
    node = node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined
  return node
}

/** The candidate with the smallest edit distance (case-insensitive). */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/** Fails to compile when an options type gains a key its schema lacks (or the other way round). */
export type SameKeys<Shape, Options> = [
  Exclude<keyof Options, keyof Shape>,
  Exclude<keyof Shape, keyof Options>,
] extends [never, never]
  ? true
  : never
