import type { AdapterFeatures } from '../shared/features.js'

export const geminiFeatures: AdapterFeatures = {
  adapter: '`gemini()`',
  tools: true,
  toolChoice: 'auto, required, none, named',
  parallelCalls: 'no knob',
  thinking: 'summaries, signatures replayed',
  images: 'data, URL with mimeType',
  files: 'data, URL with mimeType',
  caching: 'implicit; cached tokens reported',
  structuredOutput: '`responseSchema`; before Gemini 3 with tools, in the prompt',
  usage: 'input, output, cacheRead, total',
}
