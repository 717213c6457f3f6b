import type { OutputUnit, Validator } from '@cfworker/json-schema'
import { validatorClass } from '#peers'
import type { JSONSchema, Validation } from '../contract/types.js'
import { hasPatterns, withinPatternBudget } from './bounded-patterns.js'

// Raw JSON Schema is checked by @cfworker/json-schema: draft 2020-12 with the standard formats, an
// interpreter with no code generation, so the first value checked costs about a millisecond where a
// compiling validator paid tens (see docs/design.md, "Validating raw JSON Schema"). The module is
// loaded, and each schema's validator made, at the first value that schema checks.

/** A validate function for `schema`; nothing is loaded or built until its first call. */
export function jsonSchemaValidator(schema: JSONSchema): (value: unknown) => Validation<unknown> {
  let validator: Validator | undefined
  // A pattern may backtrack without end (an MCP server's schema is untrusted): bounded in time.
  const bounded = hasPatterns(schema)
  return (value) => {
    validator ??= make(schema)
    const v = validator
    let result: ReturnType<Validator['validate']>
    try {
      result = bounded ? withinPatternBudget(() => v.validate(value)) : v.validate(value)
    } catch (error) {
      // What the definition-time check cannot see, e.g. a $ref to a location the schema lacks.
      return { ok: false, issues: [`(schema): ${error instanceof Error ? error.message : String(error)}`] }
    }
    return result.valid ? { ok: true, value } : { ok: false, issues: issuesOf(result.errors) }
  }
}

function make(schema: JSONSchema): Validator {
  const ValidatorClass = validatorClass()
  const { $schema: _ignored, ...rest } = schema
  // All errors (no short circuit): the model gets every problem of its call at once.
  return new ValidatorClass(rest as never, '2020-12', false)
}

/** Keywords whose error only says "a part below failed": the part's own error follows it. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  '$ref',
  '$dynamicRef',
  'dependentSchemas',
  'if',
  'then',
  'else',
])

function issuesOf(errors: readonly OutputUnit[]): string[] {
  const issues: string[] = []
  const at = (e: OutputUnit): string => e.instanceLocation.slice(1) || '(root)'
  for (const e of errors) {
    if (WRAPPERS.has(e.keyword) || e.keyword === 'false') continue
    issues.push(`${at(e)}: ${e.keyword === 'additionalProperties' ? notAllowed(e, errors) : e.error}`)
  }
  return issues.length ? issues : errors.slice(0, 1).map((e) => `${at(e)}: ${e.error}`)
}

/** `additionalProperties: false` said as what it means (its `false` leaf is dropped above). */
function notAllowed(e: OutputUnit, errors: readonly OutputUnit[]): string {
  const name = /^Property "(.*)" does not match/.exec(e.error)?.[1]
  const refused =
    name !== undefined &&
    errors.some((x) => x.keyword === 'false' && x.instanceLocation === `${e.instanceLocation}/${name}`)
  return refused ? `must NOT have additional properties '${name}'` : e.error
}
