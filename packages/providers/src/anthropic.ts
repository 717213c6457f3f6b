// `@nestor/providers/anthropic`: loads `@anthropic-ai/sdk` (an optional peer) on the first call only.
export { anthropic } from './anthropic/provider.js'
export type { AnthropicOptions } from './anthropic/provider.js'
export { toAnthropicToolChoice } from './anthropic/tool-choice.js'
export type { AnthropicToolChoice } from './anthropic/tool-choice.js'
