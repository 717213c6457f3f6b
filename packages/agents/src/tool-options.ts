import type { DefineToolOptions, SchemaInput, ToolContext } from '@nestor/core'

/**
 * Options of one agent tool, shared by `@tool(...)` and `defineAgentTools`: those of core's
 * `defineTool` (so the two never drift), but the name defaults to the method's name, the method is
 * the body, and `register: true` also adds the tool to the global `registry`.
 */
export type AgentToolOptions<S extends SchemaInput = SchemaInput> = Omit<
  DefineToolOptions<S, unknown>,
  'name' | 'execute'
> & {
  name?: string
  /** Adds the tool to the core `registry`: per instance at construction, or at class definition for a static method. */
  register?: boolean
}

/**
 * The arguments a tool method receives. A zod schema gives its parsed type, checked against the
 * method's signature. A raw JSON Schema cannot be read by TypeScript: `never` accepts any method
 * signature there, and the JSON Schema validator checks the arguments at run time instead.
 */
export type MethodArgs<S> = S extends { _zod: { output: infer O } } ? O : S extends { _output: infer O } ? O : never

/** The shape a tool method must have for a schema `S`: `(args, ctx) => result`. */
export type ToolMethod<S, This = unknown> = (this: This, args: MethodArgs<S>, ctx: ToolContext) => unknown
