import { NestorError } from '../contract/errors.js'
import type { JSONSchema } from '../contract/types.js'
import { compileSchema, isZodV3, isZodV4, type SchemaInput } from './schema.js'

/** A schema's root as JSON Schema: raw JSON Schema as given, zod converted once per schema object. */
const roots = new WeakMap<object, JSONSchema>()
function rootOf(schema: SchemaInput): JSONSchema {
  if (!isZodV4(schema) && !isZodV3(schema)) return schema as JSONSchema
  let root = roots.get(schema)
  if (!root) roots.set(schema, (root = compileSchema(schema).json))
  return root
}

const isObjectSchema = (root: JSONSchema): boolean =>
  root.type === 'object' || (root.type === undefined && typeof root.properties === 'object')

/** Closed: the root declares every key it takes (additionalProperties: false, nothing by pattern). */
const isClosed = (root: JSONSchema): boolean => root.additionalProperties === false && !('patternProperties' in root)

/**
 * The part of `payload` a schema takes: for a closed object schema (zod `z.strictObject`, raw JSON
 * Schema with `additionalProperties: false`) its declared top-level properties; for any other
 * schema the payload whole. Nothing is validated. A payload that is not a plain object, given to an
 * object schema, is `invalid_options`: there is nothing to keep or pass on.
 */
export function project(schema: SchemaInput, payload: Record<string, unknown>): Record<string, unknown>
export function project(schema: SchemaInput, payload: unknown): unknown
export function project(schema: SchemaInput, payload: unknown): unknown {
  const root = rootOf(schema)
  if (!isObjectSchema(root)) return payload
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new NestorError(
      'invalid_options',
      `project: the schema is an object schema, but the payload is ${payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a ${typeof payload}`}`,
    )
  if (!isClosed(root)) return payload
  const declared = (root.properties ?? {}) as Record<string, unknown>
  const kept: Record<string, unknown> = {}
  // Defined, not assigned: a declared `__proto__` (JSON.parse makes it an own key) stays an own
  // key, and never becomes the result's prototype.
  for (const key of Object.keys(payload))
    if (Object.hasOwn(declared, key))
      Object.defineProperty(kept, key, {
        value: (payload as Record<string, unknown>)[key],
        enumerable: true,
        writable: true,
        configurable: true,
      })
  return kept
}
