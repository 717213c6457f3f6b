import { ContextStoreClass } from '../platform/node.js'
import { invalidOption } from '../contract/errors.js'
import type { Provider } from '../contract/types.js'

/** What a scope gives the execs opened inside it: a provider, a listener for their secrets, or both. */
type Scope = { provider?: Provider; onSecrets?: (secrets: readonly string[]) => void }

// In a browser (no AsyncLocalStorage) a scope reaches the execs `fn` opens before its first await.
const scopes = new ContextStoreClass<Scope>()

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
  return inScope({ provider }, fn)
}

/**
 * Runs `fn`; every exec opened inside it (on any runtime, also after an await) hands `onSecrets`
 * the strings its redactor hides (the runtime's `secrets`, its provider's key) as it opens, so
 * whatever the caller keeps of those runs (an eval's cassettes and report) is redacted the same
 * way. Returns what `fn` returns.
 */
export function withSecretsListener<T>(onSecrets: (secrets: readonly string[]) => void, fn: () => T): T {
  if (typeof onSecrets !== 'function') throw invalidOption('onSecrets', 'a function', onSecrets)
  return inScope({ onSecrets }, fn)
}

/** Runs `fn` in a scope that adds `patch` to the enclosing one (an inner scope keeps what it does not set). */
function inScope<T>(patch: Scope, fn: () => T): T {
  if (typeof fn !== 'function') throw invalidOption('fn', 'a function', fn)
  const outer = inFlight === 0 ? undefined : scopes.getStore()
  inFlight++
  let result: T
  try {
    result = scopes.run({ ...outer, ...patch }, fn)
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

/** The innermost scope around this call, if any: its provider, and who wants the secrets of its execs. */
export const currentScope = (): Scope | undefined => (inFlight === 0 ? undefined : scopes.getStore())
