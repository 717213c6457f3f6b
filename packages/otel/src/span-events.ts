import type { EventOf } from '@nestor/core'
import type { Attributes, Span } from '@opentelemetry/api'
import * as conv from './conventions.js'

/** What of an open exec its span events land on: its agent span, its model call's, its calls'. */
export type EventSpans = { span: Span; chat: Span | undefined; tools: Map<string, { span: Span }> }

/** A provider retry (a retryable failure before any content) is an event on the model call's span. */
export function retryEvent(exec: EventSpans, e: EventOf<'retry'>, captureContent: boolean): void {
  const attributes: Attributes = {
    'nestor.retry.attempt': e.attempt,
    'nestor.retry.delay_ms': e.delayMs,
    [conv.ATTR_ERROR_TYPE]: errorType(e.error),
  }
  if (e.error.status !== undefined) attributes['http.response.status_code'] = e.error.status
  // A provider's error text may quote the request: content, recorded only when asked.
  if (captureContent) attributes['exception.message'] = e.error.message
  ;(exec.chat ?? exec.span).addEvent('nestor.retry', attributes)
}

/** Calls waiting for a decision: one event each on the exec's span. */
export function approvalEvents(exec: EventSpans, e: EventOf<'approval_required'>): void {
  for (const approval of e.approvals) {
    exec.span.addEvent('nestor.approval_required', {
      [conv.ATTR_GEN_AI_TOOL_CALL_ID]: approval.toolCallId,
      [conv.ATTR_GEN_AI_TOOL_NAME]: approval.toolName,
    })
  }
}

/**
 * A question a tool body asked (ctx.ask): an event on the asking call's span, so the wait for the
 * answer is the time from it to the span's end (or to the pause, which ends the span).
 */
export function inputEvents(exec: EventSpans, e: EventOf<'input_required'>, captureContent: boolean): void {
  for (const input of e.inputs) {
    const attributes: Attributes = { [conv.ATTR_NESTOR_INPUT_ID]: input.id }
    // The question may quote the conversation: content, recorded only when asked.
    if (captureContent) attributes[conv.ATTR_NESTOR_INPUT_QUESTION] = input.question
    ;(exec.tools.get(input.toolCallId)?.span ?? exec.span).addEvent('nestor.input_required', attributes)
  }
}

/** A guardrail's verdict: an event on its tool call's span (tool guardrails), else on the exec's. */
export function guardrailEvent(exec: EventSpans, e: EventOf<'guardrail'>): void {
  const span = (e.toolCallId !== undefined && exec.tools.get(e.toolCallId)?.span) || exec.span
  span.addEvent('nestor.guardrail', {
    [conv.ATTR_NESTOR_GUARDRAIL_NAME]: e.name,
    [conv.ATTR_NESTOR_GUARDRAIL_KIND]: e.kind,
    [conv.ATTR_NESTOR_GUARDRAIL_VERDICT]: e.verdict,
    [conv.ATTR_NESTOR_GUARDRAIL_DURATION_MS]: e.durationMs,
    ...(e.phase !== undefined && { [conv.ATTR_NESTOR_GUARDRAIL_PHASE]: e.phase }),
    ...(e.reason !== undefined && { [conv.ATTR_NESTOR_GUARDRAIL_REASON]: e.reason }),
  })
}

/** A Nestor error code is the error's type (`budget_exceeded`, `aborted`, `provider_error`…). */
export const errorType = (error: { code?: string; name?: string }): string => error.code ?? error.name ?? 'error'
