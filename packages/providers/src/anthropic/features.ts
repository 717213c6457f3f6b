import type { AdapterFeatures } from '../shared/features.js'

export const anthropicFeatures: AdapterFeatures = {
  adapter: '`anthropic()`',
  tools: true,
  toolChoice: 'auto, required, none, named',
  parallelCalls: '`disable_parallel_tool_use`',
  thinking: 'yes, signed and replayed',
  images: 'data (jpeg, png, gif, webp), URL',
  files: 'PDF by data or URL, text by data',
  caching: '`cacheControl` breakpoints; reads and writes reported',
  structuredOutput: '`output_config.format` json_schema',
  usage: 'input, output, cacheRead, cacheWrite, total',
}
