import type {
  ApprovalPredicate,
  CacheOptions,
  InferArgs,
  PreparePreview,
  SchemaInput,
  ToolContext,
  ToolControl,
} from '@nestor/core'

/**
 * Options of one agent tool, shared by `@tool(...)` and `defineAgentTools`. The name defaults to
 * the method's name; `register: true` also adds the tool to the global `registry`.
 */
export type AgentToolOptions<S extends SchemaInput = SchemaInput> = {
  description: string
  parameters: S
  name?: string
  /** Adds the tool to the core `registry`: per instance at construction, or at class definition for a static method. */
  register?: boolean
  needsApproval?: boolean | ApprovalPredicate<InferArgs<S>>
  /** What the approver sees of a call that needs approval (a diff, a plan): JSON, as `ApprovalRequest.preview`. */
  prepare?: PreparePreview<InferArgs<S>>
  timeoutMs?: number
  retries?: number
  cacheable?: boolean | CacheOptions<InferArgs<S>>
  /** Result gate: a result failing this schema becomes an error result. */
  output?: SchemaInput
  /** Its result's status decides whether the loop continues (core's ToolControl, docs/governance.md). */
  control?: ToolControl
}

/**
 * The arguments a tool method receives. A zod schema gives its parsed type, checked against the
 * method's signature. A raw JSON Schema cannot be read by TypeScript: `never` accepts any method
 * signature there, and the JSON Schema validator checks the arguments at run time instead.
 */
export type MethodArgs<S> = S extends { _zod: { output: infer O } } ? O : S extends { _output: infer O } ? O : never

/** The shape a tool method must have for a schema `S`: `(args, ctx) => result`. */
export type ToolMethod<S, This = unknown> = (this: This, args: MethodArgs<S>, ctx: ToolContext) => unknown
