// The main entry: every adapter's factory and options. Importing it loads no provider SDK; each SDK
// (an optional peer dependency) is loaded by its adapter's first call. Conversion helpers live in
// the adapter subpaths (`@nestor/providers/openai`, ...); see docs/packaging.md.
export { openai } from './openai/provider.js'
export type { OpenAIProvider } from './openai/provider.js'
export type { OpenAIProviderOptions, OpenAIRequestOptions } from './openai/options.js'
export { anthropic } from './anthropic/provider.js'
export type { AnthropicOptions } from './anthropic/provider.js'
export { gemini } from './gemini/index.js'
export type { GeminiOptions } from './gemini/index.js'
export { openaiCompatible } from './openai-compatible/provider.js'
export type { OpenAICompatibleOptions, OpenAICompatibleProvider, ToolProtocol } from './openai-compatible/provider.js'
export { scripted } from './scripted/scripted.js'
export type { ScriptedTurn, ScriptedToolCall, ScriptedOptions, ScriptedProvider } from './scripted/scripted.js'
export { replay } from './replay/replay.js'
export type { ReplayOptions, ReplayMode, ReplayProvider } from './replay/replay.js'
export type { Cassette } from './replay/cassette.js'
export { toBedrockToolChoice } from './bedrock/tool-choice.js'
export type { BedrockToolChoice, BedrockToolChoiceFields } from './bedrock/tool-choice.js'
