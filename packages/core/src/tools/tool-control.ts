import { NestorError } from '../contract/errors.js'
import type { ControlDecision, Tool, ToolControl } from '../contract/types.js'

/** A control envelope checked once: reads a result and decides continue or stop. */
export type CompiledControl = { decide(value: unknown): ControlDecision }

const KEYS = new Set(['statusField', 'continueStatuses', 'stopStatuses', 'diagnosis'])
const compiled = new WeakMap<object, CompiledControl>()

const bad = (tool: string, field: string, why: string): NestorError =>
  new NestorError('invalid_options', `invalid option control.${field} of tool ${tool}: ${why}`)

const isPath = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.split('.').every((key) => key.length > 0)

/**
 * Checks a declaration and compiles it; throws `invalid_options` naming the field. Every way of
 * making a tool calls this at definition; the loop reuses the compiled form (one per declaration).
 */
export function compileControl(tool: string, control: ToolControl): CompiledControl {
  const cached = compiled.get(control)
  if (cached) return cached
  if (typeof control !== 'object' || control === null || Array.isArray(control))
    throw new NestorError('invalid_options', `invalid option control of tool ${tool}: expected an object`)
  for (const key of Object.keys(control)) if (!KEYS.has(key)) throw bad(tool, key, 'not a control field')
  if (!isPath(control.statusField))
    throw bad(tool, 'statusField', `expected a dot path such as "status", got ${JSON.stringify(control.statusField)}`)
  const continues = statusList(tool, 'continueStatuses', control.continueStatuses)
  const stops = statusList(tool, 'stopStatuses', control.stopStatuses)
  const both = [...continues].filter((status) => stops.has(status))
  if (both.length > 0)
    throw bad(tool, 'stopStatuses', `${both.map((s) => JSON.stringify(s)).join(', ')} also in continueStatuses`)
  const diagnosis = diagnosisPaths(tool, control.diagnosis)
  const statusPath = control.statusField.split('.')
  const result: CompiledControl = {
    decide(value) {
      const found: Record<string, unknown> = {}
      for (const [name, path] of diagnosis) {
        const field = at(value, path)
        if (field !== undefined) found[name] = field
      }
      const stop = (reason: string, status?: string): ControlDecision => ({
        ...(status !== undefined && { status }),
        decision: 'stop',
        diagnosis: found,
        reason,
      })
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return stop(`the result is not an object, so it has no ${control.statusField}`)
      const status = at(value, statusPath)
      if (status === undefined) return stop(`the result has no ${control.statusField}`)
      if (typeof status !== 'string')
        return stop(`${control.statusField} is not a string: ${JSON.stringify(status) ?? typeof status}`)
      if (continues.has(status)) return { status, decision: 'continue', diagnosis: found }
      if (stops.has(status)) return { status, decision: 'stop', diagnosis: found }
      return stop(`status ${JSON.stringify(status)} is in neither continueStatuses nor stopStatuses`, status)
    },
  }
  compiled.set(control, result)
  return result
}

/** The compiled envelope of a tool, or undefined for a tool without one. */
export const controlOf = (tool: Tool): CompiledControl | undefined =>
  tool.control === undefined ? undefined : compileControl(tool.spec.name, tool.control)

function statusList(tool: string, field: string, list: unknown): Set<string> {
  if (!Array.isArray(list) || list.length === 0)
    throw bad(tool, field, `expected a non-empty array of status strings, got ${JSON.stringify(list)}`)
  const wrong = list.find((s) => typeof s !== 'string' || s.length === 0)
  if (wrong !== undefined) throw bad(tool, field, `expected non-empty strings, got ${JSON.stringify(wrong)}`)
  return new Set(list as string[])
}

function diagnosisPaths(tool: string, diagnosis: unknown): [string, string[]][] {
  if (diagnosis === undefined) return []
  if (typeof diagnosis !== 'object' || diagnosis === null || Array.isArray(diagnosis))
    throw bad(tool, 'diagnosis', 'expected an object of name → dot path in the result')
  return Object.entries(diagnosis).map(([name, path]) => {
    if (!isPath(path))
      throw bad(tool, `diagnosis.${name}`, `expected a dot path such as "error.message", got ${JSON.stringify(path)}`)
    return [name, path.split('.')]
  })
}

/** The value at a dot path (own keys only: a path never reads a prototype). */
function at(value: unknown, path: readonly string[]): unknown {
  let here = value
  for (const key of path) {
    if (typeof here !== 'object' || here === null || !Object.hasOwn(here, key)) return undefined
    here = (here as Record<string, unknown>)[key]
  }
  return here
}
