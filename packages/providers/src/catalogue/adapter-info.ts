import type { Capabilities, ModelInfo } from '@nestor/core/integration-kit'
import { modelInfo } from './model-info.js'

/**
 * An adapter's `capabilities` and `modelInfo`, both read from the catalogue entry of `kind` (the
 * catalogue's name for what the adapter talks to), so its window and its prices have one source.
 * `maxOutputTokens`: the reply cap the adapter sends when a request gives none. Without a `kind`
 * (a server the catalogue cannot know) there are only the adapter's own flags, and no prices.
 */
export function catalogued(
  kind: string | undefined,
  flags: (model: string) => Capabilities,
  maxOutputTokens?: number,
): { capabilities(model: string): Promise<Capabilities>; modelInfo(model: string): Promise<ModelInfo | undefined> } {
  const info = async (model: string): Promise<ModelInfo> => {
    const entry = kind === undefined ? undefined : await modelInfo(kind, model)
    const capabilities = flags(model)
    if (entry?.contextWindow !== undefined) capabilities.contextWindow = entry.contextWindow
    return {
      ...entry,
      capabilities,
      ...(maxOutputTokens !== undefined && { maxOutputTokens }),
    }
  }
  return {
    capabilities: async (model) => ({ ...(await info(model)).capabilities }),
    modelInfo: info,
  }
}
