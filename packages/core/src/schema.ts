import { createRequire } from 'node:module'
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import type { JSONSchema as ZodJSONSchema, ToJSONSchemaParams } from 'zod/v4/core'
import type { JSONSchema, Validation } from './types.js'

/** What `defineTool({ parameters })` accepts: a zod v4 schema, a zod v3 schema, or raw JSON Schema. */
export type ZodV4Like = { _zod: { def: unknown }; safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }
export type ZodV3Like = { _def: unknown; safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }
export type SchemaInput = ZodV4Like | ZodV3Like | JSONSchema

/** Infers the parsed type of a zod v4/v3 schema; raw JSON Schema gives a plain record. */
export type InferArgs<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : Record<string, unknown>

export const isZodV4 = (s: unknown): s is ZodV4Like => typeof s === 'object' && s !== null && '_zod' in s
export const isZodV3 = (s: unknown): s is ZodV3Like =>
  typeof s === 'object' && s !== null && '_def' in s && !('_zod' in s) && typeof (s as ZodV3Like).safeParse === 'function'

/**
 * A schema normalised for both audiences: the JSON Schema the model sees and a validator the loop
 * runs. zod v4 goes through z.toJSONSchema (zod-to-json-schema turns v4 schemas into `{}`).
 */
export type CompiledSchema = { json: JSONSchema; validate(value: unknown): Validation<unknown> }

export function compileSchema(input: SchemaInput): CompiledSchema {
  if (isZodV4(input)) {
    const json = zodV4ToJson(input, { io: 'input', unrepresentable: 'any' })
    delete json.$schema
    return { json, validate: (value) => fromZod(input.safeParse(value)) }
  }
  if (isZodV3(input)) {
    const { zodToJsonSchema } = load('zod-to-json-schema') as typeof import('zod-to-json-schema')
    const json = zodToJsonSchema(input as never, { $refStrategy: 'none' }) as JSONSchema
    delete json.$schema
    return { json, validate: (value) => fromZod(input.safeParse(value)) }
  }
  const json = input as JSONSchema
  const check = compileJsonSchema(json)
  return {
    json,
    validate: (value) => (check(value) ? { ok: true, value } : { ok: false, issues: formatAjv(check.errors) }),
  }
}

// Ajv, zod's JSON Schema generator and zod-to-json-schema cost more to load than the rest of core:
// they are loaded (synchronously, since defineTool is synchronous) by the first schema that needs
// them, not when @nestor/core is imported. zod itself is the app's (a peer dependency).
const load = createRequire(import.meta.url)

type ZodV4Convertible = ZodV4Like & { toJSONSchema?(params: ToJSONSchemaParams): ZodJSONSchema.BaseSchema }
function zodV4ToJson(input: ZodV4Like, params: ToJSONSchemaParams): JSONSchema {
  // Classic zod 4 schemas convert themselves: no second zod module to load.
  const own = (input as ZodV4Convertible).toJSONSchema
  if (typeof own === 'function') return own.call(input, params) as JSONSchema
  const { toJSONSchema } = load('zod/v4/core') as typeof import('zod/v4/core')
  return toJSONSchema(input as never, params) as JSONSchema
}

// One Ajv instance: compiled validators are cached per schema object.
let ajv: Ajv | undefined
const compiled = new WeakMap<object, ValidateFunction>()
function compileJsonSchema(schema: JSONSchema): ValidateFunction {
  let fn = compiled.get(schema)
  if (!fn) {
    ajv ??= new (load('ajv') as typeof import('ajv')).Ajv({ allErrors: true, strict: false })
    const { $schema: _ignored, ...rest } = schema
    fn = ajv.compile(rest)
    compiled.set(schema, fn)
  }
  return fn
}

function formatAjv(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)'
    const extra = e.keyword === 'additionalProperties' ? ` '${String((e.params as { additionalProperty?: string }).additionalProperty)}'` : ''
    return `${where}: ${e.message ?? e.keyword}${extra}`
  })
}

type ZodIssueLike = { path?: PropertyKey[]; message: string }
function fromZod(result: { success: boolean; data?: unknown; error?: unknown }): Validation<unknown> {
  if (result.success) return { ok: true, value: result.data }
  const issues = ((result.error as { issues?: ZodIssueLike[] } | undefined)?.issues ?? []).map(
    (i) => `${i.path && i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`,
  )
  return { ok: false, issues: issues.length ? issues : ['invalid value'] }
}
