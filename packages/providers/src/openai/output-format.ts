import type { JSONSchema } from '@nestor/core'
import type { OutputSpec } from '@nestor/core/integration-kit'
import { toStrictSchema } from './strict-schema.js'

/**
 * The json_schema format of a typed-output request (Chat `response_format`, Responses
 * `text.format`). Strict mode only when the schema already qualifies — every property of every
 * object required — so closing its objects changes nothing the caller's validator accepts. A
 * schema with optional properties goes non-strict: strict mode would make the model send `null`
 * for them, which the caller's schema may not allow.
 */
export function toOutputFormat(output: OutputSpec): { name: string; schema: JSONSchema; strict: boolean } {
  if (!allRequired(output.schema)) return { name: output.name, schema: output.schema, strict: false }
  return { name: output.name, schema: toStrictSchema(output.schema), strict: true }
}

function allRequired(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return true
  if (Array.isArray(node)) return node.every(allRequired)
  const schema = node as Record<string, unknown>
  const properties = schema.properties
  if (typeof properties === 'object' && properties !== null) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : [])
    if (!Object.keys(properties).every((key) => required.has(key))) return false
  }
  return Object.entries(schema).every(
    ([key, value]) => key === 'enum' || key === 'const' || key === 'default' || allRequired(value),
  )
}
