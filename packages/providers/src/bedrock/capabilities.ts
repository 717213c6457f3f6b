import type { Capabilities } from '@nestor/core/integration-kit'

/**
 * A static guess from the model id (`anthropic.claude-…`, `us.anthropic.claude-…`, `amazon.nova-…`),
 * costing no request. Every Converse model family listed takes tools; extended thinking is Claude
 * 3.7 and later.
 */
export function bedrockCapabilities(model: string): Capabilities {
  const id = model.toLowerCase()
  const claude = /anthropic\.claude-(?:(\d+)-(\d)-[a-z]+|[a-z]+-(\d+))/.exec(id)
  if (claude) {
    const major = Number(claude[1] ?? claude[3])
    const minor = claude[2] === undefined ? 0 : Number(claude[2])
    return { tools: true, thinking: major > 3 || (major === 3 && minor >= 7) }
  }
  return { tools: true, thinking: false }
}
