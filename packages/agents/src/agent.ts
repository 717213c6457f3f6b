import {
  NestorError,
  Runtime,
  currentExec,
  exec as execInFrame,
  type ExecInput,
  type ExecOptions,
  type ExecRun,
  type Provider,
  type SchemaInput,
  type Tool,
} from '@nestor/core'
import type { ChoiceOf, ExecOutputOf, HandoffTarget, OutputSchema } from '@nestor/core'
import {
  agentProfile,
  toolSource,
  type AgentProfile,
  type HandoffAgent,
  type ToolSource,
} from '@nestor/core/integration-kit'
import { agentAsTool, type AsToolDefaultSchema, type AsToolOptions } from './as-tool.js'
import { bindDeclaredTools } from './define-agent-tools.js'
import { toolsOf } from './method-tool.js'

export type AgentOptions = {
  /** Runs this agent's execs on this runtime (nested under the current exec when there is one). */
  runtime?: Runtime
  /** Overrides the provider of this agent's execs; with `model` and no runtime, the agent can run alone. */
  provider?: Provider
  model?: string
}

/**
 * An agent: instructions plus tools declared as methods (`@tool` or `defineAgentTools`).
 * An instance passed in `exec({ tools: [agent] })` expands to its tools (the core `toolSource`
 * protocol); `agent.asTool()` makes the whole agent one tool; `this.exec()` runs a loop with the
 * agent's instructions as the system prompt.
 */
export abstract class Agent implements ToolSource, HandoffAgent {
  /** The system prompt of this agent's execs. */
  abstract instructions: string
  /** Its name in handoffs (`transfer_to_<name>`) and `result.agent`; default: the class name in snake_case, less a trailing `Agent`. */
  name?: string
  /** What a model deciding on a handoff reads of it. */
  description?: string
  /** Agents it may hand the conversation to (docs/handoffs.md). */
  handoffs?: HandoffTarget[]
  runtime?: Runtime
  provider?: Provider
  model?: string
  /** Typed output of this agent's execs (and of `asTool`) unless an exec names its own. */
  output?: SchemaInput
  // Created on first use when the agent has a provider and a model but no runtime.
  #ownRuntime?: Runtime

  constructor(options: AgentOptions = {}) {
    if (options.runtime) this.runtime = options.runtime
    if (options.provider) this.provider = options.provider
    if (options.model !== undefined) this.model = options.model
    bindDeclaredTools(this, new.target)
  }

  /** This agent's tools, bound to this instance, in declaration order (base class first). */
  get tools(): Tool[] {
    return toolsOf(this)
  }

  [toolSource](): Tool[] {
    return this.tools
  }

  /** What a handoff to this agent answers with: its instructions, tools, model, provider, output, handoffs. */
  [agentProfile](): AgentProfile {
    return {
      name: this.agentName,
      tools: this.tools,
      ...(this.description !== undefined && { description: this.description }),
      ...(this.instructions && { instructions: this.instructions }),
      ...(this.provider && { provider: this.provider }),
      ...(this.model !== undefined && { model: this.model }),
      ...(this.output !== undefined && { output: this.output }),
      ...(this.handoffs && { handoffs: this.handoffs }),
    }
  }

  /** `name`, else the class name: `BillingAgent` → `billing`, `OrderDesk` → `order_desk`. */
  get agentName(): string {
    if (this.name !== undefined) return this.name
    const base = this.constructor.name.replace(/Agent$/, '') || 'agent'
    return base.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
  }

  /**
   * Opens an exec with this agent's instructions as `system` (unless `options.system` is given).
   * Inside a tool body it is a nested exec of the running one (depth + 1, events stream up).
   * Tools: `options.tools`/`toolset` if given, else the agent's own tools (minus the one whose
   * body is running), else, for an agent without tools, the nesting rules' inherited ones.
   * Runtime: the agent's own if it has one, else the current exec's; outside any exec and without
   * one, it throws `no_runtime`.
   */
  exec<S extends OutputSchema | undefined = undefined, const C extends string = never>(
    input: ExecInput,
    options: ExecOptions<S, C> = {},
  ): ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>> {
    const merged: ExecOptions = { ...options }
    // A call's choices are its output: the agent's own schema does not apply to it.
    if (merged.output === undefined && merged.choices === undefined && this.output !== undefined)
      merged.output = this.output
    if (merged.system === undefined && this.instructions) merged.system = this.instructions
    if (merged.tools === undefined && merged.toolset === undefined) {
      const own = this.ownTools()
      if (own.length > 0) merged.tools = own
    }
    if (merged.handoffs === undefined && this.handoffs?.length) merged.handoffs = this.handoffs
    merged.agent ??= this.agentName
    if (merged.provider === undefined && this.provider && !this.runtime) merged.provider = this.provider
    if (merged.model === undefined && this.model !== undefined && !this.runtime) merged.model = this.model
    const runtime = this.runtime ?? this.standaloneRuntime()
    if (runtime) return runtime.exec(input, merged) as ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>>
    if (!currentExec()) {
      throw new NestorError(
        'no_runtime',
        `${this.constructor.name}.exec() was called outside any exec: give the agent a runtime (or a provider and a model), or call it from inside a tool body`,
      )
    }
    return execInFrame(input, merged) as ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>>
  }

  /**
   * The whole agent as one tool: its body runs a nested exec with this agent's instructions and
   * tools, its events stream up through the caller's exec, and its final text is the tool result.
   */
  asTool<S extends SchemaInput = AsToolDefaultSchema>(options: AsToolOptions<S>): Tool {
    return agentAsTool(this, options)
  }

  /** The agent's tools, less the one whose body is running (a method cannot re-enter itself unasked). */
  private ownTools(): Tool[] {
    const running = currentExec()?.toolName
    return running === undefined ? this.tools : this.tools.filter((t) => t.spec.name !== running)
  }

  private standaloneRuntime(): Runtime | undefined {
    if (currentExec() || !this.provider || this.model === undefined) return undefined
    this.#ownRuntime ??= new Runtime({ provider: this.provider, model: this.model })
    return this.#ownRuntime
  }
}
