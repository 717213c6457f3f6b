import { invalidOption, NestorError } from '../contract/errors.js'
import type { Tool } from '../contract/types.js'
import type { SchemaInput } from '../schema/schema.js'
import { defineTool } from './tool.js'

/** What the model is told of a tool whose result is supplied: `parameters` is zod or JSON Schema. */
export type SuppliedToolSpec = { name: string; description?: string; parameters?: SchemaInput }

/** Marks a supplied-results tool that has no result: a call to it stops the exec (calls/stages.ts). */
const missingResult: unique symbol = Symbol.for('nestor.missingResult')

export const hasMissingResult = (tool: Tool): boolean => (tool as { [missingResult]?: true })[missingResult] === true

/** The error a call to a tool without a supplied result stops its exec (or batch) with. */
export const missingResultError = (name: string): NestorError =>
  new NestorError('missing_result', `no supplied result for tool ${name}: the exec stops instead of guessing one`)

const EMPTY_PARAMETERS = { type: 'object', properties: {} }

/**
 * Tools whose results are strings given up front, keyed by tool name (a strict replay needs no
 * callback to dispatch). Every spec becomes a tool with its arguments checked like any other; a
 * spec without a supplied result is still offered, and a call to it stops the exec
 * `missing_result`. A supplied result with no spec is refused: the model could never reach it.
 */
export function suppliedResults(results: Readonly<Record<string, string>>, specs: readonly SuppliedToolSpec[]): Tool[] {
  if (typeof results !== 'object' || results === null || Array.isArray(results))
    throw invalidOption('suppliedResults', 'an object of tool name → result string', results)
  if (!Array.isArray(specs)) throw invalidOption('specs', 'an array of { name, description?, parameters? }', specs)
  const names = new Set<string>()
  for (const [index, spec] of (specs as readonly unknown[]).entries()) {
    if (typeof spec !== 'object' || spec === null)
      throw invalidOption(`specs[${index}]`, 'an object { name, description?, parameters? }', spec)
    const { name, description } = spec as Partial<SuppliedToolSpec>
    if (typeof name !== 'string' || name === '') throw invalidOption(`specs[${index}].name`, 'a tool name', name)
    if (names.has(name))
      throw new NestorError('invalid_options', `invalid option specs[${index}].name: duplicate tool name "${name}"`)
    if (description !== undefined && typeof description !== 'string')
      throw invalidOption(`specs[${index}].description`, 'a string', description)
    names.add(name)
  }
  for (const [name, text] of Object.entries(results)) {
    if (typeof text !== 'string') throw invalidOption(`suppliedResults.${name}`, 'a string', text)
    if (!names.has(name))
      throw new NestorError(
        'invalid_options',
        `invalid option suppliedResults.${name}: no spec is named ${name} (specs: ${[...names].join(', ') || '(none)'})`,
      )
  }
  return specs.map((spec) => {
    const text = Object.hasOwn(results, spec.name) ? results[spec.name] : undefined
    const tool = defineTool({
      name: spec.name,
      description: spec.description ?? '',
      parameters: spec.parameters ?? EMPTY_PARAMETERS,
      // Never reached without a result: the call stops at its own stage before any body.
      execute: () => {
        if (text === undefined) throw missingResultError(spec.name)
        return text
      },
    }) as Tool
    if (text === undefined) Object.assign(tool, { [missingResult]: true })
    return tool
  })
}
