// `@nestor/providers/openai-compatible`: local and hosted OpenAI-compatible servers, over the `openai` SDK
// (an optional peer, loaded on the first call only).
export { openaiCompatible } from './openai-compatible/provider.js'
export type { OpenAICompatibleOptions, OpenAICompatibleProvider, ToolProtocol } from './openai-compatible/provider.js'
