import type { ReasoningEffort } from 'openai/resources/shared'

/** The mapped knobs of `ModelRequest.options`, read defensively: options are untyped data. */
export type MappedOptions = {
  maxTokens?: number
  temperature?: number
  reasoningEffort?: ReasoningEffort
  raw: Record<string, unknown>
}

export function readRequestOptions(options: Record<string, unknown> | undefined): MappedOptions {
  const out: MappedOptions = { raw: {} }
  if (!options) return out
  if (typeof options.maxTokens === 'number') out.maxTokens = options.maxTokens
  if (typeof options.temperature === 'number') out.temperature = options.temperature
  if (typeof options.reasoningEffort === 'string') out.reasoningEffort = options.reasoningEffort as ReasoningEffort
  const raw = options.openai
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) out.raw = raw as Record<string, unknown>
  return out
}
