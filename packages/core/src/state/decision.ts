import type { PriorDecision } from './exec-state.js'

/**
 * An approval decision from outside (an approve handler's answer, a fork's edit, a journal): the
 * decision it is, or what is wrong with it. Only `approved === true` approves, so a truthy
 * `'false'`, `'no'` or `1` fails closed. `bare` accepts `true` and `false` (a handler's shorthand).
 */
export function decisionOf(value: unknown, bare = false): PriorDecision | string {
  if (bare && value === true) return { approved: true }
  if (bare && value === false) return { approved: false, reason: 'rejected by approver' }
  const expected = bare ? 'true, false or { approved: true | false }' : '{ approved: true | false }'
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${describe(value)}, not a decision (expected ${expected})`
  const { approved, args, reason } = value as Record<string, unknown>
  if (approved === true) {
    if (args === undefined) return { approved: true }
    if (typeof args === 'object' && args !== null && !Array.isArray(args))
      return { approved: true, args: args as Record<string, unknown> }
    return `a decision whose args are ${describe(args)}, not an object of arguments`
  }
  if (approved === false) {
    if (reason === undefined) return { approved: false, reason: 'rejected by approver' }
    if (typeof reason === 'string') return { approved: false, reason }
    return `a rejection whose reason is ${describe(reason)}, not a string`
  }
  return `a decision whose approved is ${describe(approved)}, not true or false (expected ${expected})`
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'function') return 'a function'
  try {
    const text = JSON.stringify(value)
    return text.length > 60 ? `${typeof value} ${text.slice(0, 60)}…` : text
  } catch {
    return `a ${typeof value}`
  }
}
