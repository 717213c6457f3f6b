import { aiSdkFeatures } from './ai-sdk/features.js'
import { anthropicFeatures } from './anthropic/features.js'
import { bedrockFeatures } from './bedrock/features.js'
import { geminiFeatures } from './gemini/features.js'
import { openaiChatFeatures, openaiResponsesFeatures } from './openai/features.js'
import type { AdapterFeatures } from './shared/features.js'

/** Every network adapter's declared features, in the order of the docs/providers.md table. */
export const adapterFeatures: readonly AdapterFeatures[] = [
  openaiChatFeatures,
  openaiResponsesFeatures,
  anthropicFeatures,
  geminiFeatures,
  bedrockFeatures,
  aiSdkFeatures,
]
