import type { ApprovalDecision, Runtime } from '@nestor/core'
import { allowed, checkAccess, notFound, type RunAccess, type RunAction } from './access.js'
import type { ApprovalGate } from './approval-gate.js'
import { errorResponse, jsonBody } from './http-errors.js'

export type ControlAction = 'steer' | 'followUp' | 'abort' | 'approve' | 'reject' | 'edit' | 'answer'
export const CONTROL_ACTIONS: readonly ControlAction[] = [
  'steer',
  'followUp',
  'abort',
  'approve',
  'reject',
  'edit',
  'answer',
]

export type ControlTarget = RunAccess & {
  runtime: Runtime
  execId: string
  action: string
  approvals?: ApprovalGate
  /** Default 1 MiB. */
  maxBodyBytes?: number
}

/**
 * Handles a POST that controls a running exec. Bodies (JSON, with a JSON content type):
 * steer / followUp `{ "message": string }`, abort `{ "reason"?: string }`,
 * approve `{ "toolCallId": string }`, reject `{ "toolCallId": string, "reason"?: string }`,
 * edit `{ "toolCallId": string, "args": object }`, answer `{ "id": string, "value": any JSON }` (a
 * question a tool asked; a value its schema refuses answers 400 `bad_answer` with `issues`, and the
 * question still waits).
 * Answers 202 `{ ok: true }`; 400 for bad JSON or fields, 404 `not_found` for an unknown exec or
 * one the caller may not reach (`authorize` / `owner`), 404 for a call that is not waiting, 409
 * when the exec has ended, 413 / 415 for a body too large or not JSON. Never throws on client input.
 */
export async function handleControl(request: Request, target: ControlTarget): Promise<Response> {
  checkAccess(target, 'handleControl')
  return control(request, target)
}

/** handleControl once its options are known to be whole (runRoutes checks them at construction). */
export async function control(request: Request, target: ControlTarget): Promise<Response> {
  const { runtime, execId, action } = target
  if (request.method !== 'POST') return errorResponse(405, 'method_not_allowed', `use POST for ${action}`)
  if (!(CONTROL_ACTIONS as readonly string[]).includes(action))
    return errorResponse(404, 'unknown_action', `unknown action ${action}; one of ${CONTROL_ACTIONS.join(', ')}`)
  const body = await jsonBody(request, target.maxBodyBytes)
  if (body instanceof Response) return body
  if (!(await allowed(request, target, runtime, action as RunAction, execId)).ok) return notFound(execId)
  const run = runtime.attach(execId, { after: 'latest' })
  if (!run) return notFound(execId)
  if (!run.live) return errorResponse(409, 'exec_ended', `run ${execId} has ended; start a new one`)

  if (action === 'steer' || action === 'followUp') {
    if (typeof body.message !== 'string' || body.message.trim() === '')
      return errorResponse(400, 'bad_request', `${action} needs { "message": a non-empty string }`)
    if (action === 'steer') run.steer(body.message)
    else run.followUp(body.message)
    return accepted()
  }
  if (action === 'abort') {
    if (body.reason !== undefined && typeof body.reason !== 'string')
      return errorResponse(400, 'bad_request', 'abort takes { "reason"?: string }')
    run.abort(body.reason ?? 'aborted over HTTP')
    return accepted()
  }
  if (!target.approvals) return errorResponse(404, 'no_approvals', 'this server decides no approvals over HTTP')
  if (action === 'answer') return answer(target.approvals, execId, body)
  if (typeof body.toolCallId !== 'string' || body.toolCallId === '')
    return errorResponse(400, 'bad_request', `${action} needs { "toolCallId": string }`)
  let decision: ApprovalDecision
  if (action === 'approve') decision = { approved: true }
  else if (action === 'reject') {
    if (body.reason !== undefined && typeof body.reason !== 'string')
      return errorResponse(400, 'bad_request', 'reject takes { "toolCallId": string, "reason"?: string }')
    decision = { approved: false, reason: body.reason ?? 'rejected by the user' }
  } else {
    const args = body.args
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return errorResponse(400, 'bad_request', 'edit needs { "toolCallId": string, "args": object }')
    decision = { approved: true, args: args as Record<string, unknown> }
  }
  if (!target.approvals.decide(execId, body.toolCallId, decision))
    return errorResponse(
      404,
      'not_waiting',
      `tool call ${body.toolCallId} of run ${execId} is not waiting for a decision`,
    )
  return accepted()
}

const accepted = () => Response.json({ ok: true }, { status: 202 })

function answer(gate: ApprovalGate, execId: string, body: Record<string, unknown>): Response {
  if (typeof body.id !== 'string' || body.id === '' || !('value' in body))
    return errorResponse(400, 'bad_request', 'answer needs { "id": string, "value": the answer }')
  const answered = gate.answer(execId, body.id, body.value)
  if (!answered)
    return errorResponse(404, 'not_waiting', `input ${body.id} of run ${execId} is not waiting for an answer`)
  if (!answered.ok)
    return Response.json(
      { error: { code: 'bad_answer', message: 'the answer does not match the question', issues: answered.issues } },
      { status: 400 },
    )
  return accepted()
}
