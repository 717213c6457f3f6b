export { gemini, buildRequest as buildGeminiRequest } from './provider.js'
export type { GeminiOptions } from './provider.js'
export { toGeminiToolConfig } from './tool-config.js'
export { toGeminiTools, toGeminiParameters } from './convert-tools.js'
export { toGeminiContents } from './convert-messages.js'
export { geminiCapabilities } from './capabilities.js'
export type {
  GeminiContent,
  GeminiPart,
  GeminiSchema,
  GeminiTool,
  GeminiToolConfig,
  GeminiRequest,
} from './wire-types.js'
