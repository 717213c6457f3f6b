import type { ErrorObject, ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { NestorError } from './errors.js'
import { z } from 'zod'
import { zodToJsonSchema } from 'zod-to-json-schema'
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
export type CompiledSchema = {
  json: JSONSchema
  validate(value: unknown): Validation<unknown>
  /** Where a zod v4 schema holds a type JSON Schema cannot express (`when: date`), in schema order. */
  unrepresentable?: string[]
}

export function compileSchema(input: SchemaInput): CompiledSchema {
  if (isZodV4(input)) {
    const unrepresentable: string[] = []
    const json = z.toJSONSchema(input as unknown as z.ZodType, {
      io: 'input',
      unrepresentable: 'any',
      override: ({ zodSchema, path }) => {
        const type = (zodSchema as { _zod: { def: { type: string } } })._zod.def.type
        if (NOT_JSON.has(type)) unrepresentable.push(`${jsonPathToField(path)}: ${type}`)
      },
    }) as JSONSchema
    delete json.$schema
    return { json, validate: (value) => fromZod(input.safeParse(value)), unrepresentable }
  }
  if (isZodV3(input)) {
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

/** zod types that become `{}` in JSON Schema: a model cannot produce them, a validator cannot check them. */
export const NOT_JSON = new Set(['date', 'bigint', 'map', 'set', 'function', 'symbol', 'promise', 'nan', 'undefined', 'void', 'custom'])

/** A JSON Schema location (`properties.a.items`) as a field path a developer recognises (`a[]`). */
export function jsonPathToField(path: readonly (string | number)[]): string {
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

// ajv-formats is CommonJS: under NodeNext its default import is the module, the plugin is `.default`.
type FormatsPlugin = typeof formats.default
const addFormats: FormatsPlugin = (formats as unknown as { default?: FormatsPlugin }).default ?? (formats as unknown as FormatsPlugin)

// One Ajv instance: compiled validators are cached per schema object. Draft 2020-12 (what zod
// emits, and a superset of draft-07 in practice) with the standard formats checked. `logger: false`
// because a library must never print: an unknown keyword or format is not worth a console line.
let ajv: Ajv2020 | undefined
const compiled = new WeakMap<object, ValidateFunction>()
function compileJsonSchema(schema: JSONSchema): ValidateFunction {
  let fn = compiled.get(schema)
  if (!fn) {
    if (!ajv) {
      ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, validateFormats: true })
      addFormats(ajv)
    }
    const { $schema: _ignored, ...rest } = schema
    try {
      fn = ajv.compile(rest)
    } catch (error) {
      throw new NestorError('invalid_options', `invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
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
