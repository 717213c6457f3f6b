import { importPeer } from '../shared/import-peer.js'

type OpenAIClass = (typeof import('openai'))['default']
let loaded: OpenAIClass | undefined

/** The key a client gets when the app gave none (a local server): it is nobody's secret. */
export const NO_KEY = 'nestor-local-no-key'

/** The `openai` SDK, imported on the first call that needs it (an optional peer dependency). */
export async function loadOpenAI(adapter: string): Promise<OpenAIClass> {
  loaded ??= (await importPeer(() => import('openai'), 'openai', adapter)).default
  return loaded
}

/** The SDK once loaded: an SDK error can only come from an attempt that loaded it. */
export const loadedOpenAI = (): OpenAIClass | undefined => loaded
