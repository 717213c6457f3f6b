import type { PendingInput, ResumeDecisions } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { compileSchema } from '@nestor/core/integration-kit'

/**
 * Why a decision cannot be used, or undefined when it can: the shape `runtime.resume` takes, at
 * least one call, each call named once. A decision is JSON from another process (a web route, an
 * old client), so the workflow checks it again rather than trusting `decide()`'s check.
 */
export function decisionProblem(decisions: unknown): string | undefined {
  if (typeof decisions !== 'object' || decisions === null || Array.isArray(decisions))
    return 'expected { approve?, reject?, edit?, answers? }'
  const { approve, reject, edit, answers, ...rest } = decisions as Record<string, unknown>
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
  if (answers !== undefined && !isObject(answers)) return 'answers must be an object: { [input id]: value }'
  if (named.length === 0 && Object.keys(answers ?? {}).length === 0) return 'it names no call and answers nothing'
  const twice = named.find((id, index) => named.indexOf(id) !== index)
  if (twice !== undefined) return `call ${twice} is named twice`
  return undefined
}

/**
 * Why a decision's answers cannot be used for these waiting questions, or undefined when they can:
 * each names a waiting question and matches its schema (checked here, so a bad answer never
 * reaches the resume, whose refusal would fail the workflow).
 */
export function answersProblem(decisions: ResumeDecisions, inputs: readonly PendingInput[]): string | undefined {
  const waiting = new Map(inputs.map((input) => [input.id, input]))
  for (const [id, value] of Object.entries(decisions.answers ?? {})) {
    const input = waiting.get(id)
    if (!input) return `input ${id} is not waiting`
    const checked = compileSchema(input.schema).validate(value)
    if (!checked.ok) return `the answer to input ${id} does not match its schema: ${checked.issues.join('; ')}`
  }
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

/** The ask handler of a resume after the wait timed out: every question asked again is refused. */
export const refuseQuestions = (reason: string) => () => {
  throw new NestorError('input_unavailable', reason)
}

/** The decision of a wait that timed out: every waiting call rejected. */
export function rejectAll(approvals: { toolCallId: string }[], reason: string): ResumeDecisions {
  return { reject: approvals.map(({ toolCallId }) => ({ toolCallId, reason })) }
}
