import type { JSONSchema } from '@nestor/core'
import type { ToolSpec } from '@nestor/core/integration-kit'
import type { GeminiSchema, GeminiTool } from './wire-types.js'

// Gemini's `parameters` takes a select subset of OpenAPI 3.0 and answers 400 "Unknown name" to any
// other keyword (additionalProperties, $schema, const, propertyNames, multipleOf, title, default,
// examples, $defs…). So the conversion is a whitelist, not a blacklist: only keywords below survive.

/** Formats Gemini accepts per type; others (email, uri, uuid…) are rejected by the API. */
const FORMATS: Record<string, string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
}

/** Converts tool specs to one Gemini tool with a function declaration each. */
export function toGeminiTools(specs: readonly ToolSpec[]): GeminiTool[] | undefined {
  if (specs.length === 0) return undefined
  return [
    {
      functionDeclarations: specs.map((spec) => {
        const parameters = toGeminiParameters(spec.parameters)
        return {
          name: spec.name,
          ...(spec.description ? { description: spec.description } : {}),
          ...(parameters ? { parameters } : {}),
        }
      }),
    },
  ]
}

/**
 * Converts a tool's JSON Schema to the subset. An object schema without properties (a tool with
 * no arguments) returns undefined: Gemini rejects OBJECT parameters with empty `properties`, and
 * a declaration without `parameters` means "no arguments".
 */
export function toGeminiParameters(schema: JSONSchema): GeminiSchema | undefined {
  const converted = convert(schema, { root: schema, expanding: [] })
  if (converted.type === 'object' && (!converted.properties || Object.keys(converted.properties).length === 0))
    return undefined
  return converted
}

type Context = { root: JSONSchema; expanding: string[] }

function convert(input: unknown, ctx: Context): GeminiSchema {
  if (input === true || input === undefined || input === null || typeof input !== 'object') return {}
  const schema = input as JSONSchema

  const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined
  if (ref !== undefined) return convertRef(ref, schema, ctx)

  if (Array.isArray(schema.allOf)) return convert(mergeAllOf(schema), ctx)

  const union = (
    Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
  ) as unknown[] | undefined
  if (union) return convertUnion(union, schema, ctx)

  const out: GeminiSchema = {}
  const types = typeList(schema.type)
  const nonNull = types.filter((t) => t !== 'null')
  const nullable = types.includes('null') || schema.nullable === true
  if (nonNull.length > 1) {
    // `type: ["string","number"]`: Gemini takes one type per schema, so spell it as anyOf.
    const { type: _type, ...rest } = schema
    return withMeta(
      { anyOf: nonNull.map((t) => convert({ ...rest, type: t }, ctx)), ...(nullable ? { nullable: true } : {}) },
      schema,
    )
  }
  let type = nonNull[0]
  const values = enumValues(schema)
  if (values) {
    if (values.some((v) => v === null)) out.nullable = true
    const strings = values.filter((v): v is string => typeof v === 'string')
    // Gemini enums are string-only; a non-string const/enum keeps its type and loses the constraint.
    if (strings.length > 0 && strings.length === values.filter((v) => v !== null).length) {
      out.enum = strings
      type ??= 'string'
    } else if (!type) {
      const first = values.find((v) => v !== null)
      if (typeof first === 'number') type = Number.isInteger(first) ? 'integer' : 'number'
      else if (typeof first === 'boolean') type = 'boolean'
    }
  }
  if (!type && isObject(schema.properties)) type = 'object'
  if (!type && schema.items !== undefined) type = 'array'
  if (type) out.type = type
  if (nullable) out.nullable = true
  withMeta(out, schema)

  if (typeof schema.format === 'string' && type && FORMATS[type]?.includes(schema.format)) out.format = schema.format

  if (type === 'object' && isObject(schema.properties)) {
    const properties: Record<string, GeminiSchema> = {}
    for (const [key, value] of Object.entries(schema.properties)) properties[key] = convert(value, ctx)
    out.properties = properties
    if (Array.isArray(schema.required)) {
      const required = schema.required.filter((r): r is string => typeof r === 'string' && r in properties)
      if (required.length > 0) out.required = required
    }
  }
  if (type === 'array') {
    // Tuple forms (prefixItems, items: [...]) have no equivalent: use the first element's schema.
    const items = Array.isArray(schema.items)
      ? schema.items[0]
      : (schema.items ?? (Array.isArray(schema.prefixItems) ? schema.prefixItems[0] : undefined))
    if (items !== undefined) out.items = convert(items, ctx)
    if (typeof schema.minItems === 'number') out.minItems = schema.minItems
    if (typeof schema.maxItems === 'number') out.maxItems = schema.maxItems
  }
  if (type === 'number' || type === 'integer') {
    if (typeof schema.minimum === 'number') out.minimum = schema.minimum
    if (typeof schema.maximum === 'number') out.maximum = schema.maximum
  }
  return out
}

/** `anyOf`/`oneOf`: a `null` member becomes `nullable`; a single remaining member is inlined. */
function convertUnion(members: unknown[], schema: JSONSchema, ctx: Context): GeminiSchema {
  const isNull = (m: unknown) =>
    isObject(m) && (m.type === 'null' || (Array.isArray(m.enum) && m.enum.length === 1 && m.enum[0] === null))
  const rest = members.filter((m) => !isNull(m))
  const nullable = rest.length < members.length || schema.nullable === true
  let out: GeminiSchema
  if (rest.length === 1) out = convert(rest[0], ctx)
  else out = { anyOf: rest.map((m) => convert(m, ctx)) }
  if (nullable) out.nullable = true
  return withMeta(out, schema)
}

/**
 * Inlines a local `$ref` (`#/$defs/X`, `#/definitions/X`). Gemini has no references; a recursive
 * reference is cut at its second visit and becomes a plain object, so conversion terminates.
 */
function convertRef(ref: string, schema: JSONSchema, ctx: Context): GeminiSchema {
  if (ctx.expanding.includes(ref)) return withMeta({ type: 'object' }, schema)
  const target = resolvePointer(ctx.root, ref)
  if (target === undefined) return withMeta({}, schema)
  const { $ref: _ref, ...siblings } = schema
  const out = convert(target, { root: ctx.root, expanding: [...ctx.expanding, ref] })
  return withMeta(out, siblings)
}

function resolvePointer(root: JSONSchema, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let node: unknown = root
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isObject(node)) return undefined
    node = node[key]
  }
  return node
}

/** Merges `allOf` members (properties, required, the rest shallowly) into one schema. */
function mergeAllOf(schema: JSONSchema): JSONSchema {
  const { allOf, ...base } = schema
  const merged: JSONSchema = { ...base }
  for (const member of allOf as unknown[]) {
    if (!isObject(member)) continue
    for (const [key, value] of Object.entries(member)) {
      if (key === 'properties' && isObject(value))
        merged.properties = { ...(isObject(merged.properties) ? merged.properties : {}), ...value }
      else if (key === 'required' && Array.isArray(value))
        merged.required = [...(Array.isArray(merged.required) ? merged.required : []), ...value]
      else if (!(key in merged)) merged[key] = value
    }
  }
  return merged
}

function withMeta(out: GeminiSchema, schema: JSONSchema): GeminiSchema {
  if (typeof schema.description === 'string' && out.description === undefined) out.description = schema.description
  return out
}

/** Lower-cased: OpenAPI-style "OBJECT"/"STRING" (what Gemini's own examples use) is accepted too. */
function typeList(type: unknown): string[] {
  if (typeof type === 'string') return [type.toLowerCase()]
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase())
  return []
}

function enumValues(schema: JSONSchema): unknown[] | undefined {
  if ('const' in schema) return [schema.const]
  return Array.isArray(schema.enum) ? schema.enum : undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
