import type { Capabilities } from '@nestor/core/integration-kit'

/**
 * A static rule, not a call to the models endpoint: every current Gemini chat model takes tools;
 * thinking exists from 2.5 on (and on 3.x), inferred from the version in the name. The context
 * window comes from the catalogue (catalogue/).
 */
export function geminiCapabilities(model: string): Capabilities {
  const version = /gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1]
  const thinking = version !== undefined && Number(version) >= 2.5
  return { tools: true, thinking }
}
