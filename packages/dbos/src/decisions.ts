import type { ResumeDecisions } from '@nestor/core'

/**
 * Why a decision cannot be used, or undefined when it can: the shape `runtime.resume` takes, at
 * least one call, each call named once. A decision is JSON from another process (a web route, an
 * old client), so the workflow checks it again rather than trusting `decide()`'s check.
 */
export function decisionProblem(decisions: unknown): string | undefined {
  if (typeof decisions !== 'object' || decisions === null || Array.isArray(decisions))
    return 'expected { approve?, reject?, edit? }'
  const { approve, reject, edit, ...rest } = decisions as Record<string, unknown>
  const extra = Object.keys(rest)
  if (extra.length > 0) return `unknown field ${extra[0]}`
  const named: string[] = []
  const ids = (list: unknown, field: string, idOf: (item: unknown) => unknown): string | undefined => {
    if (list === undefined) return undefined
    if (!Array.isArray(list)) return `${field} must be an array`
    for (const item of list) {
      const id = idOf(item)
      if (typeof id !== 'string' || id === '') return `${field} holds an entry without a tool call id`
      named.push(id)
    }
    return undefined
  }
  const problem =
    ids(approve, 'approve', (item) => item) ??
    ids(reject, 'reject', (item) => (isObject(item) ? item['toolCallId'] : undefined)) ??
    ids(edit, 'edit', (item) => (isObject(item) && isObject(item['args']) ? item['toolCallId'] : undefined))
  if (problem) return problem
  if (
    Array.isArray(reject) &&
    reject.some((item) => isObject(item) && !['string', 'undefined'].includes(typeof item['reason']))
  )
    return 'a reject reason must be a string'
  if (named.length === 0) return 'it names no call'
  const twice = named.find((id, index) => named.indexOf(id) !== index)
  if (twice !== undefined) return `call ${twice} is named twice`
  return undefined
}

/** The ids a usable decision names. */
export function namedCalls(decisions: ResumeDecisions): string[] {
  return [
    ...(decisions.approve ?? []),
    ...(decisions.reject ?? []).map((r) => r.toolCallId),
    ...(decisions.edit ?? []).map((e) => e.toolCallId),
  ]
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
