import { AsyncLocalStorage } from 'node:async_hooks'
import { invalidOption } from '../contract/errors.js'
import type { Provider } from '../contract/types.js'

const scopes = new AsyncLocalStorage<Provider>()

// Before Node 24 an enabled AsyncLocalStorage slows every promise of the process (frame.ts says
// why), so this one is on only while a scope is in flight.
let inFlight = 0

/**
 * Runs `fn` with `provider` as the provider of every exec opened inside it (on any runtime, also
 * after an await) that names none in its options and inherits none from a parent of the same
 * runtime. Returns what `fn` returns. How an eval sends a task's model traffic through a case's
 * cassette without the task passing a provider (docs/evals.md).
 */
export function withProvider<T>(provider: Provider, fn: () => T): T {
  if (typeof provider !== 'object' || provider === null || typeof provider.stream !== 'function')
    throw invalidOption('provider', 'a Provider with a stream() method', provider)
  if (typeof fn !== 'function') throw invalidOption('fn', 'a function', fn)
  inFlight++
  let result: T
  try {
    result = scopes.run(provider, fn)
  } catch (error) {
    settled()
    throw error
  }
  // A promise (an ExecRun included) keeps the scope on until it settles; then() on an ExecRun
  // makes a plain promise, so the caller's value is returned untouched.
  const pending = result as unknown as Partial<PromiseLike<unknown>> | null | undefined
  if (typeof pending?.then === 'function') pending.then(settled, settled)
  else settled()
  return result
}

function settled(): void {
  if (--inFlight === 0) scopes.disable()
}

/** The provider of the innermost `withProvider` around this call, if any. */
export const scopedProvider = (): Provider | undefined => (inFlight === 0 ? undefined : scopes.getStore())
