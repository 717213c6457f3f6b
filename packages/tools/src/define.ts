import { defineTool, type JSONSchema, type Tool, type ToolContext, type ToolOutput } from '@nestor/core'

/** What a built-in tool did, for events and UIs (`tool_end.result.details.effect`); never sent to the model. */
export type ToolEffect =
  | { kind: 'read'; path: string; bytes: number; firstLine: number; lastLine: number; totalLines: number }
  | { kind: 'write'; path: string; created: boolean; bytes: number; added: number; removed: number }
  | { kind: 'list'; path: string; entries: number; truncated: boolean }
  | { kind: 'search'; path: string; pattern: string; matches: number; files: number; truncated: boolean }
  | {
      kind: 'command'
      command: string
      exitCode: number | null
      signal: string | null
      outputBytes: number
      sandbox: 'bubblewrap' | 'none'
    }
  | { kind: 'fetch'; url: string; finalUrl: string; status: number; bytes: number; truncated: boolean }

export type BuiltinToolDefinition<A> = {
  name: string
  description: string
  parameters: JSONSchema
  execute: (args: A, ctx: ToolContext) => Promise<ToolOutput>
  needsApproval?: boolean
  prepare?: (args: A, ctx: ToolContext) => Promise<string>
}

/**
 * A tool over raw JSON Schema parameters: core validates every call against the schema before
 * `execute`, so the arguments have the declared shape `A`. Unknown keys are refused.
 */
export function builtinTool<A>(definition: BuiltinToolDefinition<A>): Tool {
  const { execute, prepare, ...rest } = definition
  return defineTool({
    ...rest,
    parameters: { ...definition.parameters, additionalProperties: false },
    strictArguments: true,
    execute: (args, ctx) => execute(args as A, ctx),
    ...(prepare && { prepare: (args: Record<string, unknown>, ctx: ToolContext) => prepare(args as A, ctx) }),
  })
}

/** A result: `text` for the model, the effect for events. */
export const withEffect = (text: string, effect: ToolEffect): ToolOutput => ({
  content: [{ type: 'text', text }],
  details: { effect },
})

/**
 * A refusal or failure the model reads as an error result (the loop goes on). Thrown from a body,
 * its message is the whole result text.
 */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal'
}
