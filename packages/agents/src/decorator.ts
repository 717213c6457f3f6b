import { NestorError, type SchemaInput } from '@nestor/core'
import { bindMethodTool, resolveMethod, type Impl } from './method-tool.js'
import type { AgentToolOptions, ToolMethod } from './tool-options.js'

/**
 * `@tool({ description, parameters })`: a standard (TC39) method decorator, no
 * `experimentalDecorators`. The method's first parameter is checked against the schema's parsed
 * type (`S` is inferred from `parameters`), the second is the ToolContext.
 *
 * Binding happens per instance, through `context.addInitializer`: decoration time has no
 * instance. Each new object gets its own Tool (with `this` = that object) and an own-property
 * copy of the method that `exec({ tools: [obj.method] })` understands. With `register: true` the
 * instance's tool is added to the global registry when the instance is constructed (a later
 * instance of the same declaration replaces an earlier one; another tool of that name throws); a
 * static method is bound to its class and registered once, when the class is defined.
 */
export function tool<S extends SchemaInput>(options: AgentToolOptions<S>) {
  return function decorate<This, M extends ToolMethod<S, This>>(
    method: M,
    context: ClassMethodDecoratorContext<This, M>,
  ): void {
    // Legacy decorators call (prototype, key, descriptor): the context is then a key, not an object.
    if (typeof context !== 'object' || context === null) throw legacyDecorators()
    if (context.kind !== 'method') throw new TypeError('@tool decorates methods only')
    const key = context.name
    context.addInitializer(function (this: This) {
      const owner = this as object
      if (context.static || context.private) {
        // A static method lives on the class itself; a private one cannot be looked up by key.
        bindMethodTool(
          owner,
          key,
          method as unknown as Impl,
          options as AgentToolOptions,
          context.static && !context.private,
        )
      } else {
        bindMethodTool(
          owner,
          key,
          resolveMethod(owner, key, method as unknown as Impl),
          options as AgentToolOptions,
          true,
        )
      }
    })
  }
}

const legacyDecorators = () =>
  new NestorError(
    'invalid_options',
    '@tool is a standard (TC39) decorator, but it was called as a legacy one: remove "experimentalDecorators" from your tsconfig (and keep "target": "es2022"; see docs/packaging.md)',
  )
