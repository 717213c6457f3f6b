import { importPeer } from '../shared/import-peer.js'

type AnthropicModule = typeof import('@anthropic-ai/sdk')
let loaded: AnthropicModule | undefined

/** `@anthropic-ai/sdk`, imported on the first call that needs it (an optional peer dependency). */
export async function loadAnthropic(adapter: string): Promise<AnthropicModule> {
  loaded ??= await importPeer(() => import('@anthropic-ai/sdk'), '@anthropic-ai/sdk', adapter)
  return loaded
}

/** The SDK once loaded: an SDK error can only come from an attempt that loaded it. */
export const loadedAnthropic = (): AnthropicModule | undefined => loaded
