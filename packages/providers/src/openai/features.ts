import type { AdapterFeatures } from '../shared/features.js'

export const openaiChatFeatures: AdapterFeatures = {
  adapter: '`openai()` (Chat Completions)',
  tools: true,
  toolChoice: 'auto, required, none, named',
  parallelCalls: '`parallel_tool_calls`',
  thinking: 'reasoning effort (no text)',
  images: 'data, URL',
  files: 'PDF by data',
  caching: 'automatic; cached tokens reported',
  structuredOutput: '`response_format` json_schema',
  usage: 'input, output, cacheRead, total',
}

export const openaiResponsesFeatures: AdapterFeatures = {
  adapter: "`openai({ api: 'responses' })`",
  tools: true,
  toolChoice: 'auto, required, none, named',
  parallelCalls: '`parallel_tool_calls`',
  thinking: 'summaries, reasoning items replayed',
  images: 'data, URL',
  files: 'data, URL',
  caching: 'automatic; cached tokens reported',
  structuredOutput: '`text.format` json_schema',
  usage: 'input, output, cacheRead, cacheWrite, total',
}
