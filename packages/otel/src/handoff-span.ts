import type { EventOf } from '@nestor/core'
import { SpanKind, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api'
import * as conv from './conventions.js'

/** What of an open exec a handoff changes: its current agent span and the context under it. */
export type AgentSpan = { span: Span; ctx: Context; parent: Context; named: boolean }

/**
 * A handoff (docs/handoffs.md): the agent that answered so far ends its span, and the target's
 * `invoke_agent` span starts beside it (same parent, same exec), taking the exec's next model
 * calls and tools.
 */
export function passSpan(tracer: Tracer, exec: AgentSpan, e: EventOf<'handoff'>): void {
  exec.span.setAttribute(conv.ATTR_NESTOR_HANDOFF_TO, e.to)
  exec.span.end()
  const attributes: Attributes = {
    [conv.ATTR_GEN_AI_OPERATION_NAME]: conv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    [conv.ATTR_GEN_AI_AGENT_NAME]: e.to,
    [conv.ATTR_NESTOR_EXEC_ID]: e.execId,
    [conv.ATTR_NESTOR_DEPTH]: e.depth,
  }
  if (e.from !== undefined) attributes[conv.ATTR_NESTOR_HANDOFF_FROM] = e.from
  const name = `${conv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${e.to}`
  exec.span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, exec.parent)
  exec.ctx = trace.setSpan(exec.parent, exec.span)
  exec.named = false
}
