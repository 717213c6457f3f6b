import type { SchemaInput } from '@nestor/core'
import { bindMethodTool, resolveMethod, type Impl } from './method-tool.js'
import type { AgentToolOptions, MethodArgs } from './tool-options.js'

/** Declarations made with defineAgentTools, per class (not inherited here; see bindDeclaredTools). */
const declarations = new WeakMap<object, Map<string, AgentToolOptions>>()

type AnyClass<T> = abstract new (...args: never[]) => T

/**
 * Each entry names a method of the class; its options' schema must fit that method's first
 * parameter, the same check `@tool` makes.
 */
export type AgentToolDeclarations<T, D> = {
  [K in keyof D]: K extends keyof T
    ? D[K] extends AgentToolOptions<infer S>
      ? T[K] extends (args: MethodArgs<S>, ...rest: never[]) => unknown
        ? D[K]
        : AgentToolOptions<S> & { parameters: never; '(error) the method signature does not accept the schema': K }
      : AgentToolOptions
    : { '(error) not a method of the class': K }
}

/**
 * The decorator-free way to declare tools, for toolchains without standard decorators: call it
 * once after the class, before creating instances. `Agent`'s constructor binds the declared
 * methods of every class in the instance's chain, exactly as `@tool` does; `register: true`
 * registers per instance at construction.
 *
 *   class Notes extends Agent { instructions = '…'; async search({ q }: { q: string }) { … } }
 *   defineAgentTools(Notes, { search: { description: 'Search notes', parameters: z.object({ q: z.string() }) } })
 */
export function defineAgentTools<T extends object, D extends Record<string, AgentToolOptions<SchemaInput>>>(
  cls: AnyClass<T>,
  tools: D & AgentToolDeclarations<T, D>,
): void {
  let own = declarations.get(cls)
  if (!own) declarations.set(cls, (own = new Map()))
  for (const [key, options] of Object.entries(tools as Record<string, AgentToolOptions>)) {
    if (typeof (cls.prototype as Record<string, unknown>)[key] !== 'function') {
      throw new TypeError(`defineAgentTools: ${cls.name}.prototype.${key} is not a method`)
    }
    own.set(key, options)
  }
}

/** Called by the Agent constructor: binds the declared methods of every class from the base down. */
export function bindDeclaredTools(instance: object, newTarget: object): void {
  const chain: object[] = []
  for (let c: object | null = newTarget; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null)
    chain.unshift(c)
  for (const cls of chain) {
    for (const [key, options] of declarations.get(cls) ?? []) {
      bindMethodTool(instance, key, resolveMethod(instance, key, (() => undefined) as Impl), options, true)
    }
  }
}
