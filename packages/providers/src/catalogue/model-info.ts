import type { Capabilities, ModelInfo, ModelPriceTier, ModelPrices } from '@nestor/core/integration-kit'
import { anthropicCapabilities } from '../anthropic/capabilities.js'
import { bedrockCapabilities } from '../bedrock/capabilities.js'
import { geminiCapabilities } from '../gemini/capabilities.js'
import { openAICapabilities } from '../openai/capabilities.js'

// The model catalogue: prices and context windows from @pydantic/genai-prices (a dataset kept for
// this, updated with each release; docs/design.md says why this one), tool and thinking flags from
// each adapter's rules. The dataset is ~0.8 MB of JavaScript, so it loads at the first lookup.

type Dataset = typeof import('@pydantic/genai-prices')
type RawPrice = number | { base: number; tiers: { start: number; price: number }[] } | undefined
let dataset: Promise<Dataset> | undefined
const loadDataset = (): Promise<Dataset> => (dataset ??= import('@pydantic/genai-prices'))

/** Nestor's adapter names → the dataset's provider ids; other names are looked up as they are. */
const DATASET_IDS: Readonly<Record<string, string>> = { gemini: 'google', bedrock: 'aws' }

/**
 * Each adapter's rules for a model's flags; its window when the dataset has none (the family's
 * documented window: every Claude model 200k, every Gemini chat model 1,048,576).
 */
const FAMILIES: Readonly<
  Record<string, { flags: (model: string) => Capabilities; window?: (model: string) => number | undefined }>
> = {
  openai: { flags: openAICapabilities },
  anthropic: {
    flags: anthropicCapabilities,
    window: (m) => (m.toLowerCase().startsWith('claude') ? 200_000 : undefined),
  },
  gemini: { flags: geminiCapabilities, window: (m) => (m.includes('gemini') ? 1_048_576 : undefined) },
  bedrock: { flags: bedrockCapabilities, window: (m) => (/anthropic\.claude/i.test(m) ? 200_000 : undefined) },
}

const found = new Map<string, Promise<ModelInfo>>()

/**
 * What the catalogue knows of `model` as `provider` serves it (`openai`, `anthropic`, `gemini`,
 * `bedrock`, or a dataset id such as `groq` or `mistral`): context window, prices in dollars per
 * million tokens, capabilities. Unknown models get no prices, never a guess. Each answer is kept.
 */
export function modelInfo(provider: string, model: string): Promise<ModelInfo> {
  const key = `${provider}:${model}`
  let info = found.get(key)
  if (!info) found.set(key, (info = lookUp(provider, model)))
  return info
}

async function lookUp(provider: string, model: string): Promise<ModelInfo> {
  const family = FAMILIES[provider]
  const capabilities: Capabilities = family ? family.flags(model) : { tools: true, thinking: false }
  const { calcPrice } = await loadDataset()
  // A zero usage prices nothing: the answer is the matched model and its prices as of now.
  const match = calcPrice({}, model, { providerId: DATASET_IDS[provider] ?? provider })
  const contextWindow = match?.model.context_window ?? family?.window?.(model)
  if (contextWindow !== undefined) capabilities.contextWindow = contextWindow
  const prices = match ? pricesOf(match.model_price as Record<string, RawPrice>) : undefined
  return {
    capabilities,
    ...(contextWindow !== undefined && { contextWindow }),
    ...(prices && { prices }),
  }
}

const KEYS = {
  input: 'input_mtok',
  output: 'output_mtok',
  cacheRead: 'cache_read_mtok',
  cacheWrite: 'cache_write_mtok',
}

/** The dataset's per-million prices in Nestor's shape; long-context tiers become `tiers`. */
function pricesOf(raw: Record<string, RawPrice>): ModelPrices | undefined {
  const at = (key: string, start: number): number | undefined => {
    const price = raw[key]
    if (price === undefined || typeof price === 'number') return price
    let rate = price.base
    for (const tier of price.tiers) if (start >= tier.start) rate = tier.price
    return rate
  }
  const ratesAt = (start: number) => {
    const input = at(KEYS.input, start)
    const output = at(KEYS.output, start)
    if (input === undefined || output === undefined) return undefined
    const cacheRead = at(KEYS.cacheRead, start)
    const cacheWrite = at(KEYS.cacheWrite, start)
    return {
      input,
      output,
      ...(cacheRead !== undefined && { cacheRead }),
      ...(cacheWrite !== undefined && { cacheWrite }),
    }
  }
  const base = ratesAt(0)
  if (!base) return undefined
  const starts = new Set<number>()
  for (const key of Object.values(KEYS)) {
    const price = raw[key]
    if (typeof price === 'object') for (const tier of price.tiers) starts.add(tier.start)
  }
  if (starts.size === 0) return base
  // The dataset bills a prompt of more than `start` tokens at the tier's rate.
  const tiers: ModelPriceTier[] = [...starts]
    .sort((a, b) => a - b)
    .map((start) => ({ above: start, ...(ratesAt(start + 1) ?? base) }))
  return { ...base, tiers }
}
