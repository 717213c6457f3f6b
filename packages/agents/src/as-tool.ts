import {
  defineTool,
  NestorError,
  type ApprovalRequest,
  type ExecInput,
  type ExecOptions,
  type ExecResult,
  type ExecStatus,
  type InferArgs,
  type SchemaInput,
  type Tool,
  type ToolOutput,
} from '@nestor/core'
import { z } from 'zod/v4'

/** What an agent-as-tool needs of its agent: its own tools, and its exec (the Agent class has both). */
export type AgentForTool = {
  readonly tools: Tool[]
  exec(input: ExecInput, options: ExecOptions): PromiseLike<ExecResult>
}

/** The parameters of an agent-as-tool unless others are given: one free-text request. */
export const defaultAsToolParameters = z.object({
  input: z.string().describe('The request for the agent, in plain language'),
})
export type AsToolDefaultSchema = typeof defaultAsToolParameters

export type AsToolOptions<S extends SchemaInput = AsToolDefaultSchema> = {
  name: string
  description: string
  /** Default `{ input: string }`. */
  parameters?: S
  /**
   * Turns the tool's arguments into the agent's input. Default: `args.input` for the default
   * parameters, the arguments as JSON otherwise.
   */
  prompt?: (args: InferArgs<S>) => ExecInput
  needsApproval?: boolean
  timeoutMs?: number
  /** Cap on the nested loop's model calls (its own `maxIterations`). */
  maxIterations?: number
  /**
   * Typed output for the nested exec (default: the agent's own `output`): the tool returns the
   * validated object, as JSON to the model and as `details.output` to events and UIs.
   */
  output?: SchemaInput
}

/** What an agent-as-tool reports beside its text: for events and UIs, never shown to the model. */
export type AgentToolDetails = {
  execId: string
  status: ExecStatus
  iterationsUsed: number
  pending?: ApprovalRequest[]
  output?: unknown
}

export function agentAsTool<S extends SchemaInput>(agent: AgentForTool, options: AsToolOptions<S>): Tool {
  const parameters = (options.parameters ?? defaultAsToolParameters) as S
  const toInput =
    options.prompt ??
    ((args: InferArgs<S>): ExecInput => (options.parameters ? JSON.stringify(args) : (args as { input: string }).input))
  return defineTool({
    name: options.name,
    description: options.description,
    parameters,
    ...(options.needsApproval !== undefined && { needsApproval: options.needsApproval }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    async execute(args): Promise<ToolOutput> {
      // The agent's own tools, never the caller's: an agent is its instructions and its tools.
      // `tools: []` (no tools) makes a pure reasoning call rather than inheriting.
      const result = await agent.exec(toInput(args), {
        tools: agent.tools,
        ...(options.maxIterations !== undefined && { maxIterations: options.maxIterations }),
        ...(options.output !== undefined && { output: options.output }),
      })
      if (result.status === 'paused') {
        // Paused is not a failure: the child waits for a decision. Inside an exec tree the whole
        // tree pauses at its root and this output is dropped; a child opened elsewhere (a batch)
        // reports it, and events and UIs see `status: 'paused'` with what waits.
        const waiting = result.pending?.approvals ?? []
        const details: AgentToolDetails = {
          execId: result.execId,
          status: 'paused',
          iterationsUsed: result.iterationsUsed,
          pending: waiting,
        }
        const names = waiting.map((w) => `${w.toolName} (${w.toolCallId})`).join(', ')
        const text = `agent ${options.name} paused: it waits for approval of ${names || 'a tool call'} (give the runtime an approve handler to decide approvals inside agents)`
        return { content: [{ type: 'text', text }], details }
      }
      if (result.status !== 'completed') {
        throw new NestorError(
          result.error?.code ?? 'aborted',
          `agent ${options.name} ${result.status}: ${result.error?.message ?? result.status}`,
        )
      }
      const details: AgentToolDetails = {
        execId: result.execId,
        status: result.status,
        iterationsUsed: result.iterationsUsed,
      }
      if (result.output === undefined) return { content: [{ type: 'text', text: result.text }], details }
      details.output = result.output
      return { content: [{ type: 'text', text: JSON.stringify(result.output) }], details }
    },
  }) as unknown as Tool
}
