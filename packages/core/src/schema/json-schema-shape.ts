import type { JSONSchema } from '../contract/types.js'

// The definition-time check of a raw JSON Schema: what a validator would refuse to compile (a type
// that does not exist, a `required` that is not a list of names, a pattern that is not a regular
// expression, a sub-schema that is neither an object nor a boolean). It is plain code, so defining
// a tool loads no validator; the validator itself is made at the first value it checks.

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
/** Keywords holding one sub-schema. */
const ONE = [
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]
/** Keywords holding a list of sub-schemas. */
const LIST = ['prefixItems', 'allOf', 'anyOf', 'oneOf']
/** Keywords holding a map of sub-schemas. */
const MAP = ['properties', '$defs', 'definitions', 'dependentSchemas']
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']

/** The first problem of `schema`, as `where: what`, or undefined when it is well formed. */
export function schemaProblem(schema: unknown, at = '#'): string | undefined {
  if (typeof schema === 'boolean') return undefined
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return `${at}: a schema must be an object or a boolean`
  const s = schema as JSONSchema
  const type = s.type
  if (type !== undefined && !(Array.isArray(type) ? type.every(isType) : isType(type)))
    return `${at}/type: ${JSON.stringify(type)} is not a JSON Schema type (${[...TYPES].join(', ')})`
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string')))
    return `${at}/required: must be an array of property names`
  if (s.enum !== undefined && !Array.isArray(s.enum)) return `${at}/enum: must be an array`
  for (const key of NUMBERS)
    if (s[key] !== undefined && typeof s[key] !== 'number') return `${at}/${key}: must be a number`
  for (const key of COUNTS)
    if (s[key] !== undefined && !(Number.isInteger(s[key]) && (s[key] as number) >= 0))
      return `${at}/${key}: must be an integer >= 0`
  if (s.pattern !== undefined && !isPattern(s.pattern)) return `${at}/pattern: not a regular expression`
  for (const key of ONE) {
    const problem = s[key] === undefined ? undefined : schemaProblem(s[key], `${at}/${key}`)
    if (problem) return problem
  }
  // `items` is one schema (2020-12) or a list of them (draft-07 tuples).
  const items = Array.isArray(s.items) ? s.items : s.items === undefined ? [] : [s.items]
  for (let i = 0; i < items.length; i++) {
    const problem = schemaProblem(items[i], Array.isArray(s.items) ? `${at}/items/${i}` : `${at}/items`)
    if (problem) return problem
  }
  for (const key of LIST) {
    if (s[key] === undefined) continue
    if (!Array.isArray(s[key])) return `${at}/${key}: must be an array of schemas`
    const list = s[key] as unknown[]
    for (let i = 0; i < list.length; i++) {
      const problem = schemaProblem(list[i], `${at}/${key}/${i}`)
      if (problem) return problem
    }
  }
  for (const key of [...MAP, 'patternProperties']) {
    const map = s[key]
    if (map === undefined) continue
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return `${at}/${key}: must be an object`
    for (const [name, sub] of Object.entries(map)) {
      if (key === 'patternProperties' && !isPattern(name))
        return `${at}/patternProperties: ${JSON.stringify(name)} is not a regular expression`
      const problem = schemaProblem(sub, `${at}/${key}/${name}`)
      if (problem) return problem
    }
  }
  return undefined
}

const isType = (t: unknown): boolean => typeof t === 'string' && TYPES.has(t)

function isPattern(p: unknown): boolean {
  if (typeof p !== 'string') return false
  try {
    new RegExp(p, 'u')
    return true
  } catch {
    return false
  }
}
