/**
 * Maps the provider-neutral `request.options` onto Gemini's `generationConfig`. Known names are
 * translated (maxTokens → maxOutputTokens, thinkingBudget/includeThoughts → thinkingConfig);
 * `generationConfig` passes through as is and wins, for anything not named here.
 */
export function toGenerationConfig(options: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!options) return undefined
  const config: Record<string, unknown> = {}
  const copy = (from: string, to: string) => {
    if (options[from] !== undefined) config[to] = options[from]
  }
  copy('maxTokens', 'maxOutputTokens')
  copy('maxOutputTokens', 'maxOutputTokens')
  copy('temperature', 'temperature')
  copy('topP', 'topP')
  copy('topK', 'topK')
  copy('stopSequences', 'stopSequences')
  copy('seed', 'seed')
  const thinking: Record<string, unknown> = {}
  if (options.thinkingBudget !== undefined) thinking.thinkingBudget = options.thinkingBudget
  if (options.includeThoughts !== undefined) thinking.includeThoughts = options.includeThoughts
  if (Object.keys(thinking).length > 0) config.thinkingConfig = thinking
  const raw = options.generationConfig
  if (typeof raw === 'object' && raw !== null) Object.assign(config, raw)
  return Object.keys(config).length > 0 ? config : undefined
}
