import { NestorError } from '../contract/errors.js'
import { project } from '../schema/project.js'
import { compileSchema, isZodV3, type CompiledSchema, type SchemaInput } from '../schema/schema.js'
import type { Tool, ToolSpec } from '../contract/types.js'

/**
 * Compiles a tool's parameters and refuses, at definition, what no model could fill in: a root
 * that is not an object (providers take an object of named arguments) and any field whose type
 * JSON Schema cannot express (z.date(), z.bigint(), z.map(), functions, symbols…), which would
 * reach the model as `{}` and fail every call. The error names the tool and each field's path.
 */
export function compileParameters(toolName: string, input: SchemaInput): CompiledSchema {
  const compiled = compileSchema(input)
  const fields = compiled.unrepresentable ?? (isZodV3(input) ? v3Unrepresentable(input._def as V3Def, '') : [])
  if (fields.length > 0) {
    throw new NestorError(
      'invalid_options',
      `invalid parameters of tool ${toolName}: JSON Schema cannot express ${fields.join(', ')}; use JSON types (e.g. an ISO string for a date, a string or number for a bigint, an object or array for a map)`,
    )
  }
  const type = compiled.json.type
  if (type !== undefined && type !== 'object') {
    throw new NestorError(
      'invalid_options',
      `invalid parameters of tool ${toolName}: the root must be an object schema (z.object({...})), got type ${JSON.stringify(type)}`,
    )
  }
  if (
    type === undefined &&
    (compiled.json.anyOf || compiled.json.oneOf || compiled.json.allOf) &&
    !compiled.json.properties
  ) {
    throw new NestorError(
      'invalid_options',
      `invalid parameters of tool ${toolName}: the root must be an object schema (z.object({...})), got a union`,
    )
  }
  return compiled
}

/** A tool's own `strictArguments` wins over the runtime's. */
export const isStrict = (tool: Tool, runtimeStrict: boolean): boolean => tool.strictArguments ?? runtimeStrict

/**
 * The root keys `args` has and the schema does not declare. Checked on the raw arguments, the same
 * for zod and raw JSON Schema; a schema that declares extra keys (additionalProperties or
 * patternProperties as a schema) allows them.
 */
export function undeclaredKeys(parameters: ToolSpec['parameters'], args: Record<string, unknown>): string[] {
  if (undeclaredAllowed(parameters)) return []
  const declared = (parameters.properties ?? {}) as Record<string, unknown>
  return Object.keys(args).filter((key) => !Object.prototype.hasOwnProperty.call(declared, key))
}

const strictSpecs = new WeakMap<ToolSpec, ToolSpec>()
/** What the model is told: a strict tool's root schema says `additionalProperties: false`. */
export function specFor(tool: Tool, runtimeStrict: boolean): ToolSpec {
  const spec = tool.spec
  if (!isStrict(tool, runtimeStrict) || undeclaredAllowed(spec.parameters)) return spec
  let strict = strictSpecs.get(spec)
  if (!strict) {
    strict = { ...spec, parameters: { ...spec.parameters, additionalProperties: false } }
    strictSpecs.set(spec, strict)
  }
  return strict
}

function undeclaredAllowed(parameters: ToolSpec['parameters']): boolean {
  const extra = parameters.additionalProperties
  return (typeof extra === 'object' && extra !== null) || 'patternProperties' in parameters
}

type V3Def = { typeName?: string; [key: string]: unknown }
const V3_NOT_JSON: Record<string, string> = {
  ZodDate: 'date',
  ZodBigInt: 'bigint',
  ZodMap: 'map',
  ZodSet: 'set',
  ZodFunction: 'function',
  ZodSymbol: 'symbol',
  ZodPromise: 'promise',
  ZodNaN: 'nan',
  ZodUndefined: 'undefined',
  ZodVoid: 'void',
}

/** The same check for zod v3 schemas, by walking their definitions (lazy schemas are not entered). */
function v3Unrepresentable(def: V3Def | undefined, path: string, seen = new Set<unknown>()): string[] {
  if (!def || seen.has(def)) return []
  seen.add(def)
  const bad = def.typeName ? V3_NOT_JSON[def.typeName] : undefined
  if (bad) return [`${path || '(root)'}: ${bad}`]
  const child = (schema: unknown, at: string) =>
    v3Unrepresentable((schema as { _def?: V3Def } | undefined)?._def, at, seen)
  const field = (key: string) => (path ? `${path}.${key}` : key)
  switch (def.typeName) {
    case 'ZodObject': {
      const shape = typeof def.shape === 'function' ? (def.shape as () => Record<string, unknown>)() : {}
      return Object.entries(shape).flatMap(([key, schema]) => child(schema, field(key)))
    }
    case 'ZodArray':
      return child(def.type, `${path}[]`)
    case 'ZodRecord':
      return child(def.valueType, field('*'))
    case 'ZodTuple':
      return ((def.items as unknown[]) ?? []).flatMap((schema, i) => child(schema, `${path}[${i}]`))
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return [...((def.options as Iterable<unknown>) ?? [])].flatMap((schema) => child(schema, path))
    case 'ZodIntersection':
      return [...child(def.left, path), ...child(def.right, path)]
    case 'ZodEffects':
      return child(def.schema, path)
    case 'ZodPipeline':
      return child(def.in, path)
    case 'ZodBranded':
      return child(def.type, path)
    default:
      return def.innerType ? child(def.innerType, path) : []
  }
}

/** A call's arguments as its body gets them, or the issues: undeclared keys (when strict), then the schema. */
export function checkArguments(
  tool: Tool,
  runtimeStrict: boolean,
  args: Record<string, unknown>,
): { ok: true; value: Record<string, unknown> } | { ok: false; issues: string[] } {
  // Checked on the raw arguments: a zod object would strip unknown keys before we saw them.
  const extra = isStrict(tool, runtimeStrict) ? undeclaredKeys(tool.spec.parameters, args) : []
  if (extra.length > 0) return { ok: false, issues: extra.map((k) => `${k}: not a declared argument`) }
  if (!tool.validate) return { ok: true, value: args }
  const checked = tool.validate(args)
  return checked.ok ? { ok: true, value: checked.value as Record<string, unknown> } : checked
}

/** A call's arguments cut to what its tool declares, as the model is told them (closed when strict). */
export const projectArguments = (tool: Tool, runtimeStrict: boolean, args: Record<string, unknown>) =>
  project(specFor(tool, runtimeStrict).parameters, args)
