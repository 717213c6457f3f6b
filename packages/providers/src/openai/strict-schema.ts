import type { JSONSchema } from '@nestor/core'

type Schema = Record<string, unknown>

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Rewrites a JSON Schema into the subset OpenAI strict mode accepts: every object closed with
 * `additionalProperties: false` and every property listed in `required`; properties that were
 * optional become nullable, so the model sends `null` for "absent" (see `dropOptionalNulls`).
 * Keywords strict mode rejects are not removed: the API names them in its 400, which is clearer
 * than silently changing what the schema means.
 */
export function toStrictSchema(schema: JSONSchema): JSONSchema {
  const root = strictNode(schema)
  if (root.type === undefined && root.properties !== undefined) root.type = 'object'
  return root
}

function strictNode(input: unknown): Schema {
  if (!isObject(input)) return {}
  const node: Schema = { ...input }
  if (
    isObject(node.properties) ||
    node.type === 'object' ||
    (Array.isArray(node.type) && node.type.includes('object'))
  ) {
    const properties: Schema = {}
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : [])
    for (const [key, value] of Object.entries(isObject(node.properties) ? node.properties : {})) {
      const strict = strictNode(value)
      properties[key] = required.has(key) ? strict : nullable(strict)
    }
    node.properties = properties
    node.required = Object.keys(properties)
    node.additionalProperties = false
  }
  if (node.items !== undefined)
    node.items = Array.isArray(node.items) ? node.items.map(strictNode) : strictNode(node.items)
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(node[key])) node[key] = (node[key] as unknown[]).map(strictNode)
  }
  for (const key of ['$defs', 'definitions'] as const) {
    if (isObject(node[key])) {
      node[key] = Object.fromEntries(
        Object.entries(node[key] as Schema).map(([name, value]) => [name, strictNode(value)]),
      )
    }
  }
  return node
}

function nullable(node: Schema): Schema {
  if (allowsNull(node)) return node
  if (typeof node.type === 'string' && node.$ref === undefined) {
    const out: Schema = { ...node, type: [node.type, 'null'] }
    if (Array.isArray(node.enum)) out.enum = [...(node.enum as unknown[]), null]
    return out
  }
  if (Array.isArray(node.type)) return { ...node, type: [...(node.type as unknown[]), 'null'] }
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...(node.anyOf as unknown[]), { type: 'null' }] }
  return { anyOf: [node, { type: 'null' }] }
}

function allowsNull(node: Schema): boolean {
  if (node.type === 'null') return true
  if (Array.isArray(node.type) && node.type.includes('null')) return true
  if (Array.isArray(node.anyOf) && node.anyOf.some((s) => isObject(s) && allowsNull(s))) return true
  return false
}

/**
 * Undoes the nullable rewrite on arguments that came back: a `null` for a property the original
 * schema made optional (and did not allow null) is removed, so the tool's own validator sees the
 * absence it was written for.
 */
export function dropOptionalNulls(args: Record<string, unknown>, original: JSONSchema): void {
  clean(args, original, original)
}

function clean(value: unknown, schema: unknown, root: JSONSchema): void {
  const node = resolve(schema, root)
  if (!node) return
  if (Array.isArray(value)) {
    if (isObject(node.items)) for (const item of value) clean(item, node.items, root)
    return
  }
  if (!isObject(value) || !isObject(node.properties)) return
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : [])
  for (const [key, propSchema] of Object.entries(node.properties)) {
    if (!(key in value)) continue
    const prop = resolve(propSchema, root)
    if (value[key] === null && !required.has(key) && !(prop && allowsNull(prop))) delete value[key]
    else clean(value[key], propSchema, root)
  }
}

/** Follows a local `#/$defs/...` or `#/definitions/...` reference; anything else as is. */
function resolve(schema: unknown, root: JSONSchema): Schema | undefined {
  if (!isObject(schema)) return undefined
  if (typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return schema
  let target: unknown = root
  for (const part of schema.$ref.slice(2).split('/')) target = isObject(target) ? target[part] : undefined
  return isObject(target) ? target : undefined
}
