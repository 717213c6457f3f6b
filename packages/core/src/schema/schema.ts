import type { JSONSchema as ZodJSONSchema, ToJSONSchemaParams } from 'zod/v4/core'
import { NestorError } from '../contract/errors.js'
import { schemaProblem } from './json-schema-shape.js'
import { jsonSchemaValidator } from './json-schema-validator.js'
import { zodV3ToJsonSchema } from '#peers'
import { zod } from '../base/zod-lazy.js'
import type { JSONSchema, Validation } from '../contract/types.js'

/** What `defineTool({ parameters })` accepts: a zod v4 schema, a zod v3 schema, or raw JSON Schema. */
export type ZodV4Like = {
  _zod: { def: unknown }
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown }
}
export type ZodV3Like = {
  _def: unknown
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown }
}
export type SchemaInput = ZodV4Like | ZodV3Like | JSONSchema

/** Infers the parsed type of a zod v4/v3 schema; raw JSON Schema gives a plain record. */
export type InferArgs<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : Record<string, unknown>

export const isZodV4 = (s: unknown): s is ZodV4Like => typeof s === 'object' && s !== null && '_zod' in s
export const isZodV3 = (s: unknown): s is ZodV3Like =>
  typeof s === 'object' &&
  s !== null &&
  '_def' in s &&
  !('_zod' in s) &&
  typeof (s as ZodV3Like).safeParse === 'function'

/**
 * A schema normalised for both audiences: the JSON Schema the model sees and a validator the loop
 * runs. zod v4 goes through z.toJSONSchema (zod-to-json-schema turns v4 schemas into `{}`).
 */
export type CompiledSchema = {
  json: JSONSchema
  validate(value: unknown): Validation<unknown>
  /** Where a zod v4 schema holds a type JSON Schema cannot express (`when: date`), in schema order. */
  unrepresentable?: string[]
}

export function compileSchema(input: SchemaInput): CompiledSchema {
  if (isZodV4(input)) {
    const unrepresentable: string[] = []
    const json = zodV4ToJson(input, {
      io: 'input',
      unrepresentable: 'any',
      override: ({ zodSchema, path }) => {
        const type = (zodSchema as unknown as { _zod: { def: { type: string } } })._zod.def.type
        if (NOT_JSON.has(type)) unrepresentable.push(`${jsonPathToField(path)}: ${type}`)
      },
    })
    delete json.$schema
    return { json, validate: (value) => fromZod(input.safeParse(value)), unrepresentable }
  }
  if (isZodV3(input)) {
    const zodToJsonSchema = zodV3ToJsonSchema()
    const json = zodToJsonSchema(input as never, { $refStrategy: 'none' }) as JSONSchema
    delete json.$schema
    return { json, validate: (value) => fromZod(input.safeParse(value)) }
  }
  return compileJsonSchema(input as JSONSchema)
}

/** Only the validator of a schema, no JSON Schema made: zod's own parse, or the JSON Schema's checker. */
export function validatorOf(input: SchemaInput): (value: unknown) => Validation<unknown> {
  if (isZodV4(input) || isZodV3(input)) return (value) => fromZod(input.safeParse(value))
  return compileJsonSchema(input as JSONSchema).validate
}

// Per schema object: a plain `{ spec, execute }` tool is normalised again by every exec it is
// given to, and its schema is checked and its validator made once.
const compiledJson = new WeakMap<object, CompiledSchema>()
function compileJsonSchema(json: JSONSchema): CompiledSchema {
  let compiled = compiledJson.get(json)
  if (!compiled) {
    const problem = schemaProblem(json)
    if (problem) throw new NestorError('invalid_options', `invalid JSON Schema: ${problem}`)
    compiledJson.set(json, (compiled = { json, validate: jsonSchemaValidator(json) }))
  }
  return compiled
}

/** zod types that become `{}` in JSON Schema: a model cannot produce them, a validator cannot check them. */
const NOT_JSON = new Set([
  'date',
  'bigint',
  'map',
  'set',
  'function',
  'symbol',
  'promise',
  'nan',
  'undefined',
  'void',
  'custom',
])

/** A JSON Schema location (`properties.a.items`) as a field path a developer recognises (`a[]`). */
function jsonPathToField(path: readonly (string | number)[]): string {
  let out = ''
  for (let i = 0; i < path.length; i++) {
    const key = path[i]
    if (key === 'properties' || key === 'patternProperties') out += `${out ? '.' : ''}${String(path[++i])}`
    else if (key === 'items' || key === 'additionalItems') out += '[]'
    else if (key === 'prefixItems') out += `[${String(path[++i])}]`
    else if (key === 'additionalProperties') out += `${out ? '.' : ''}*`
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') i++
    else if (key === '$defs' || key === 'definitions') out = `${String(path[++i])}`
  }
  return out || '(root)'
}

// zod's JSON Schema generator and zod-to-json-schema cost more to load than the rest of core: they
// are loaded (synchronously, since defineTool is synchronous) by the first schema that needs them,
// not when @nestor/core is imported (peers/). zod itself is the app's (a peer dependency).

type ZodV4Convertible = ZodV4Like & { toJSONSchema?(params: ToJSONSchemaParams): ZodJSONSchema.BaseSchema }
function zodV4ToJson(input: ZodV4Like, params: ToJSONSchemaParams): JSONSchema {
  // Classic zod 4 schemas convert themselves: no second zod module to load.
  const own = (input as ZodV4Convertible).toJSONSchema
  if (typeof own === 'function') return own.call(input, params) as JSONSchema
  // zod mini: the generator of classic zod is zod/v4/core's, the same for both.
  return zod().toJSONSchema(input as never, params as never) as JSONSchema
}

type ZodIssueLike = { path?: PropertyKey[]; message: string }
function fromZod(result: { success: boolean; data?: unknown; error?: unknown }): Validation<unknown> {
  if (result.success) return { ok: true, value: result.data }
  const issues = ((result.error as { issues?: ZodIssueLike[] } | undefined)?.issues ?? []).map(
    (i) => `${i.path && i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`,
  )
  return { ok: false, issues: issues.length ? issues : ['invalid value'] }
}
