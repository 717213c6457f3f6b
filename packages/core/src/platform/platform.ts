// The types both variants (./node.ts and ./web.ts) give; ./same-shape.ts checks that they agree.

/** The part of AsyncLocalStorage core uses: a value seen by `fn` and what it calls. */
export interface ContextStore<T> {
  run<R>(store: T, fn: () => R): R
  getStore(): T | undefined
  exit<R>(fn: () => R): R
  disable(): void
}

/**
 * How the runtime carries a value across awaits: `hooked` (AsyncLocalStorage on promise hooks,
 * Node before 24: costly while enabled), `free` (AsyncContextFrame, Node 24; Workers, Deno, Bun),
 * `none` (browsers: a store holds only during the synchronous call).
 */
export type AsyncContext = 'hooked' | 'free' | 'none'
