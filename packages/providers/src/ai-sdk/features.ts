import type { AdapterFeatures } from '../shared/features.js'

export const aiSdkFeatures: AdapterFeatures = {
  adapter: '`aiSdk(model)`',
  tools: true,
  toolChoice: 'auto, required, none, named',
  parallelCalls: 'via `providerOptions`',
  thinking: 'reasoning parts, metadata replayed',
  images: "data, URL (the model's rules)",
  files: "data, URL (the model's rules)",
  caching: 'via `providerOptions`; reads and writes reported',
  structuredOutput: '`responseFormat` json',
  usage: 'input, output, cacheRead, cacheWrite, total',
}
