import type { ModelPrices } from '@nestor/core'
import { modelInfo } from '@nestor/providers'

/** Whose catalogue rates the offline model is priced at, as the summary line says. */
export const OFFLINE_PRICED_AS = 'openai:gpt-4o-mini'

/**
 * The offline (scripted) model has no price of its own: the app prices it at a real model's
 * catalogue rates (a Runtime `prices` entry), so the summary shows what such a run would cost.
 */
export async function offlinePrices(model: string): Promise<Record<string, ModelPrices>> {
  const { prices } = await modelInfo('openai', 'gpt-4o-mini')
  return prices ? { [`scripted:${model}`]: prices } : {}
}
