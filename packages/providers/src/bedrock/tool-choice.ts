import type { ToolChoice } from '@nestor/core'

/** Bedrock Converse `toolConfig.toolChoice`: a union with exactly one member set. */
export type BedrockToolChoice =
  { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } }

export type BedrockToolChoiceFields = {
  /** Absent means Converse's default (`auto`). */
  toolChoice?: BedrockToolChoice
  /** True: send no `toolConfig` at all (how 'none' is emulated). */
  omitTools?: boolean
}

/**
 * Maps a Nestor tool choice onto Bedrock Converse. Converse has no `none` and no parallel knob.
 * 'none' is emulated by dropping the tools; but Converse rejects a request whose history holds
 * toolUse/toolResult blocks without a `toolConfig`, so with tool history the tools stay and the
 * choice falls back to `auto` (the model may still call a tool; the caller decides what to do).
 */
export function toBedrockToolChoice(
  choice: ToolChoice | undefined,
  options: { hasToolHistory?: boolean } = {},
): BedrockToolChoiceFields {
  if (choice === undefined) return {}
  if (choice === 'auto') return { toolChoice: { auto: {} } }
  if (choice === 'required') return { toolChoice: { any: {} } }
  if (choice === 'none') return options.hasToolHistory ? { toolChoice: { auto: {} } } : { omitTools: true }
  return { toolChoice: { tool: { name: choice.name } } }
}
