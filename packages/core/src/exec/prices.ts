import type { RuntimeOptions } from '../contract/exec-types.js'
import { warn } from '../platform/node.js'
import {
  isOfflineProvider,
  type AssistantMessage,
  type ModelInfo,
  type ModelPrices,
  type Provider,
} from '../contract/types.js'
import { costOf } from '../contract/usage.js'

/**
 * What one runtime knows of its models' prices: the app's `prices` first, then the provider's
 * catalogue (`provider.modelInfo`), each looked up once per `provider:model` and kept, so pricing a
 * turn after the first is a map read and four multiplications. A model without a price is warned
 * about once per runtime and its turns carry no `cost`.
 */
class PriceBook {
  private readonly known = new Map<string, ModelInfo | undefined>()
  private readonly pending = new Map<string, Promise<ModelInfo | undefined>>()
  private readonly warned = new Set<string>()

  constructor(private readonly overrides: Readonly<Record<string, ModelPrices>> = {}) {}

  /** The entry when it was looked up already (undefined: unknown or not yet looked up). */
  cached(key: string): ModelInfo | undefined {
    return this.known.get(key)
  }

  has(key: string): boolean {
    return this.known.has(key)
  }

  /** Looks a model up once; a catalogue that fails counts as not knowing it. */
  lookup(provider: Provider, name: string, model: string): Promise<ModelInfo | undefined> {
    const key = `${name}:${model}`
    let found = this.pending.get(key)
    if (!found) {
      found = this.resolve(provider, name, model).then((info) => {
        this.known.set(key, info)
        return info
      })
      this.pending.set(key, found)
    }
    return found
  }

  private async resolve(provider: Provider, name: string, model: string): Promise<ModelInfo | undefined> {
    const own = name === provider.name ? undefined : name
    const info = await provider.modelInfo?.(model, own).catch(() => undefined)
    const override = this.overrides[`${name}:${model}`]
    if (!override) return info
    return { ...info, capabilities: info?.capabilities ?? { tools: true, thinking: false }, prices: override }
  }

  /** Once per runtime and model: a turn of it goes unpriced. */
  warnUnpriced(key: string): void {
    if (this.warned.has(key)) return
    this.warned.add(key)
    warn(
      `no price known for ${key}: its turns carry no usage.cost (add it with the Runtime option prices: { '${key}': { input, output } })`,
      'NESTOR_UNKNOWN_PRICE',
    )
  }
}

// One book per runtime, found through its options object (the exec context's only link to it).
const books = new WeakMap<Readonly<RuntimeOptions>, PriceBook>()

export function priceBook(options: Readonly<RuntimeOptions>): PriceBook {
  let book = books.get(options)
  if (!book) books.set(options, (book = new PriceBook(options.prices)))
  return book
}

/**
 * Sets `message.usage.cost` from its model's price (a live turn, before any event carries it).
 * Synchronous once the model was looked up; the first turn of a model waits for the lookup.
 */
export function priceTurn(
  options: Readonly<RuntimeOptions>,
  provider: Provider,
  message: AssistantMessage,
): void | Promise<void> {
  const book = priceBook(options)
  const key = `${message.provider}:${message.model}`
  // A test double (scripted, a strict replay) costs nothing real: its unpriced turns are not warned about.
  const warn = !isOfflineProvider(provider)
  if (book.has(key)) return applyPrice(book, key, message, warn)
  return book.lookup(provider, message.provider, message.model).then(() => applyPrice(book, key, message, warn))
}

function applyPrice(book: PriceBook, key: string, message: AssistantMessage, warn: boolean): void {
  const prices = book.cached(key)?.prices
  if (prices) message.usage.cost = costOf(message.usage, prices)
  else if (warn && message.usage.total > 0) book.warnUnpriced(key)
}
