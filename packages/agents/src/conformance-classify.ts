import { type Tool } from '@nestor/core'
import { callSignature } from '@nestor/core/integration-kit'
import { CONFORMANCE_TOOL_NAMES, type ConformanceToolName } from './conformance-tools.js'

export type ConformanceFailureClass =
  'NoToolCall' | 'InvalidToolName' | 'InvalidToolArguments' | 'DuplicateToolCall' | 'ToolLoopDidNotConverge'

/** One tool call as the model made it: `arguments` is the raw text when it was not a JSON object. */
export type ToolCallObservation = { name: string; arguments: Record<string, unknown> | string; turn: number }

export type ConformanceViolation = { class: ConformanceFailureClass; turn: number; detail: string }

const STEP: Record<ConformanceToolName, number> = { read_fixture: 0, run_fixture_test: 1, write_fixture_patch: 2 }

/**
 * Checks every call in order. Each violation gets exactly one class, the first that applies:
 * name → arguments → order → duplicate. Order means read → run → write: a step before the one
 * it needs, a re-read after a run, or a run after a write is a loop that does not converge.
 */
export function classifyCalls(observations: ToolCallObservation[], tools: Tool[]): ConformanceViolation[] {
  const byName = new Map(tools.map((t) => [t.spec.name, t]))
  const violations: ConformanceViolation[] = []
  const seen = new Set<string>()
  let reached = -1
  for (const call of observations) {
    const v = (cls: ConformanceFailureClass, detail: string) => violations.push({ class: cls, turn: call.turn, detail })
    const tool = byName.get(call.name)
    if (!tool || !(CONFORMANCE_TOOL_NAMES as readonly string[]).includes(call.name)) {
      v('InvalidToolName', `unknown tool ${JSON.stringify(call.name)} (tools: ${CONFORMANCE_TOOL_NAMES.join(', ')})`)
      continue
    }
    if (typeof call.arguments === 'string') {
      v('InvalidToolArguments', `${call.name}: arguments are not a JSON object`)
      continue
    }
    const checked = tool.validate?.(call.arguments) ?? { ok: true }
    if (!checked.ok) {
      v('InvalidToolArguments', `${call.name}: ${checked.issues.join('; ')}`)
      continue
    }
    const step = STEP[call.name as ConformanceToolName]
    if (step > reached + 1) v('ToolLoopDidNotConverge', `${call.name} before ${CONFORMANCE_TOOL_NAMES[reached + 1]}`)
    else if (step < reached)
      v('ToolLoopDidNotConverge', `${call.name} after ${CONFORMANCE_TOOL_NAMES[reached]}: the loop went back a step`)
    else if (seen.has(callSignature(call.name, call.arguments)))
      v('DuplicateToolCall', `${call.name} repeated with identical arguments`)
    seen.add(callSignature(call.name, call.arguments))
    reached = Math.max(reached, step)
  }
  return violations
}

/** How the loop ended: no call at all, an answer before the workflow was done, or no answer. */
export function classifyEnding(
  observations: ToolCallObservation[],
  end: { status: string; errorCode?: string; finalAnswer: string; turns: number },
): ConformanceViolation | undefined {
  const done = new Set(observations.map((o) => o.name))
  if (end.status === 'failed' && (end.errorCode === 'iteration_limit' || end.errorCode === 'budget_exceeded')) {
    return {
      class: 'ToolLoopDidNotConverge',
      turn: end.turns,
      detail: `still calling tools after ${end.turns} turns (limit 8)`,
    }
  }
  if (end.status !== 'completed') return undefined
  if (observations.length === 0) return { class: 'NoToolCall', turn: 1, detail: 'answered without calling any tool' }
  const missing = CONFORMANCE_TOOL_NAMES.filter((n) => !done.has(n))
  if (missing.length > 0)
    // NoToolCall is only a first turn without tool calls; an answer that skips steps after some did not converge.
    return {
      class: 'ToolLoopDidNotConverge',
      turn: end.turns,
      detail: `answered without calling ${missing.join(', ')}`,
    }
  if (end.finalAnswer.trim() === '')
    return { class: 'ToolLoopDidNotConverge', turn: end.turns, detail: 'the loop ended without a final answer' }
  return undefined
}
