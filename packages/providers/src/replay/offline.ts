import type { Provider } from '@nestor/core'

/**
 * Marks a provider that makes no network call (a replay in strict mode, a scripted model). The
 * conformance harness refuses "live" providers unless NESTOR_LIVE_TESTS=1; it reads this mark.
 * A global symbol, so packages that do not depend on @nestor/providers can read it.
 */
export const offlineProvider: unique symbol = Symbol.for('nestor.offlineProvider')

/** True for providers marked offline, and for the `scripted()` testing provider (by its shape). */
export function isOfflineProvider(provider: Provider): boolean {
  const marked = (provider as { [offlineProvider]?: unknown })[offlineProvider]
  if (typeof marked === 'boolean') return marked
  return provider.name === 'scripted' && Array.isArray((provider as { requests?: unknown }).requests)
}
