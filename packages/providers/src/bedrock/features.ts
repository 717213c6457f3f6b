import type { AdapterFeatures } from '../shared/features.js'

export const bedrockFeatures: AdapterFeatures = {
  adapter: '`bedrock()`',
  tools: true,
  toolChoice: 'auto, required, named; none emulated',
  parallelCalls: 'no knob',
  thinking: 'Claude, signed and replayed',
  images: 'data (png, jpeg, gif, webp), s3:// URL',
  files: 'documents by data or s3:// URL',
  caching: 'reads and writes reported',
  structuredOutput: 'schema in the system prompt',
  usage: 'input, output, cacheRead, cacheWrite, total',
}
