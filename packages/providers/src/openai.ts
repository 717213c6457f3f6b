// `@nestor/providers/openai`: loads the `openai` SDK (an optional peer) on the first call only.
export { openai } from './openai/provider.js'
export type { OpenAIProvider } from './openai/provider.js'
export type { OpenAIProviderOptions, OpenAIRequestOptions } from './openai/options.js'
export { toOpenAIToolChoice } from './openai/tool-choice.js'
export type {
  OpenAIChatToolChoice,
  OpenAIResponsesToolChoice,
  OpenAIToolChoiceOptions,
  OpenAIToolChoiceFields,
} from './openai/tool-choice.js'
export { toStrictSchema } from './openai/strict-schema.js'
