import type { Capabilities } from '@nestor/core/provider-kit'

/**
 * A static table, not a call to the models endpoint: every current Gemini chat model takes tools
 * and a 1,048,576-token context; thinking exists from 2.5 on (and on 3.x). Unknown names get the
 * same answer with thinking inferred from the version in the name.
 */
export function geminiCapabilities(model: string): Capabilities {
  const version = /gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1]
  const thinking = version !== undefined && Number(version) >= 2.5
  return { tools: true, thinking, contextWindow: 1_048_576 }
}
