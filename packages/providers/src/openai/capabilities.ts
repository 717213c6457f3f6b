import type { Capabilities } from '@nestor/core/integration-kit'

/**
 * A static table of flags by model-name prefix, longest prefix first. It is not discovered from the
 * API (OpenAI's model list has no capability fields), so new models get the default row until the
 * table is updated: tools on, thinking off. Context windows come from the catalogue (catalogue/).
 */
const table: [prefix: string, capabilities: Capabilities][] = [
  ['gpt-5', { tools: true, thinking: true }],
  ['gpt-4.1', { tools: true, thinking: false }],
  ['gpt-4o', { tools: true, thinking: false }],
  ['gpt-4-turbo', { tools: true, thinking: false }],
  ['gpt-3.5-turbo', { tools: true, thinking: false }],
  ['o4', { tools: true, thinking: true }],
  ['o3', { tools: true, thinking: true }],
  ['o1', { tools: true, thinking: true }],
]

export function openAICapabilities(model: string): Capabilities {
  const row = table.find(([prefix]) => model.startsWith(prefix))
  return row ? { ...row[1] } : { tools: true, thinking: false }
}
