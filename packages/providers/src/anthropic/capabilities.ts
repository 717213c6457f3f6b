import type { Capabilities } from '@nestor/core/integration-kit'

/**
 * A STATIC table by model family, not a call to the Models API: it costs no request and cannot
 * fail, but a model released after this code may be reported conservatively.
 * Extended thinking: Claude 3.7 and every family from 4 on. Every Claude model takes tools.
 * The context window comes from the catalogue (catalogue/).
 */
export function anthropicCapabilities(model: string): Capabilities {
  const id = model.toLowerCase()
  if (!id.startsWith('claude')) return { tools: true, thinking: false }
  return { tools: true, thinking: supportsThinking(id) }
}

function supportsThinking(id: string): boolean {
  // Old naming: claude-3-7-sonnet-…, claude-3-5-haiku-…, claude-3-opus-…
  const old = /^claude-(\d+)(?:-(\d))?-[a-z]/.exec(id)
  if (old) {
    const major = Number(old[1])
    const minor = old[2] === undefined ? 0 : Number(old[2])
    return major > 3 || (major === 3 && minor >= 7)
  }
  // New naming: claude-sonnet-4-5, claude-opus-4, claude-haiku-5-5, …
  const family = /^claude-[a-z]+-(\d+)/.exec(id)
  return family ? Number(family[1]) >= 4 : false
}
