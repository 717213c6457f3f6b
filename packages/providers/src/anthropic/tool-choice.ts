import type { ToolChoice } from '@nestor/core'

/** Anthropic's `tool_choice` wire shape (a structural copy, so callers need not import the SDK). */
export type AnthropicToolChoice = {
  type: 'auto' | 'any' | 'tool' | 'none'
  name?: string
  disable_parallel_tool_use?: boolean
}

/**
 * Maps Nestor's tool choice and parallel knob onto Anthropic's `tool_choice`.
 * Anthropic has no top-level parallel flag: it lives inside `tool_choice`, so `parallelToolCalls:
 * false` with no explicit choice still yields `{ type: 'auto', disable_parallel_tool_use: true }`.
 * `none` carries no parallel flag (there are no calls to serialise). Returns `{}` when there is
 * nothing to send, leaving the API default (auto, parallel allowed).
 */
export function toAnthropicToolChoice(
  choice: ToolChoice | undefined,
  options: { parallelToolCalls?: boolean } = {},
): { tool_choice?: AnthropicToolChoice } {
  const serial = options.parallelToolCalls === false
  const withKnob = (base: AnthropicToolChoice): { tool_choice: AnthropicToolChoice } =>
    serial ? { tool_choice: { ...base, disable_parallel_tool_use: true } } : { tool_choice: base }
  if (choice === undefined) return serial ? withKnob({ type: 'auto' }) : {}
  if (choice === 'none') return { tool_choice: { type: 'none' } }
  if (choice === 'auto') return withKnob({ type: 'auto' })
  if (choice === 'required') return withKnob({ type: 'any' })
  return withKnob({ type: 'tool', name: choice.name })
}
