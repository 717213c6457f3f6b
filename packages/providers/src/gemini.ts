// `@nestor/providers/gemini`: loads `@google/generative-ai` (an optional peer) on the first call only.
export {
  gemini,
  toGeminiToolConfig,
  toGeminiTools,
  toGeminiParameters,
  toGeminiContents,
  buildGeminiRequest,
  geminiCapabilities,
} from './gemini/index.js'
export type {
  GeminiOptions,
  GeminiContent,
  GeminiPart,
  GeminiSchema,
  GeminiTool,
  GeminiToolConfig,
  GeminiRequest,
} from './gemini/index.js'
