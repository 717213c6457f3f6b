import type { Capabilities } from '@nestor/core/provider-kit'

/**
 * A static table by model-name prefix, longest prefix first. It is not discovered from the API
 * (OpenAI's model list has no capability fields), so new models get the default row until the
 * table is updated: tools on, thinking off, context window unknown.
 */
const table: [prefix: string, capabilities: Capabilities][] = [
  ['gpt-5', { tools: true, thinking: true, contextWindow: 400_000 }],
  ['gpt-4.1', { tools: true, thinking: false, contextWindow: 1_047_576 }],
  ['gpt-4o', { tools: true, thinking: false, contextWindow: 128_000 }],
  ['gpt-4-turbo', { tools: true, thinking: false, contextWindow: 128_000 }],
  ['gpt-3.5-turbo', { tools: true, thinking: false, contextWindow: 16_385 }],
  ['o4', { tools: true, thinking: true, contextWindow: 200_000 }],
  ['o3', { tools: true, thinking: true, contextWindow: 200_000 }],
  ['o1', { tools: true, thinking: true, contextWindow: 200_000 }],
]

export function openAICapabilities(model: string): Capabilities {
  const row = table.find(([prefix]) => model.startsWith(prefix))
  return row ? { ...row[1] } : { tools: true, thinking: false }
}
