import { invalidOption } from '../contract/errors.js'
import type { ExecOptions } from '../contract/exec-types.js'
import type { RunState } from '../contract/run-state-schema.js'
import type { Tool } from '../contract/types.js'
import type { ExecContext } from '../exec/context.js'
import { becomeAgent } from './pass.js'
import { attachPlan, newPlan, offer, type HandoffPlan } from './plan.js'
import { resolveRoutes, type Route } from './routes.js'

// What the runtime asks of handoffs when an exec opens or resumes: the plan, the transfer tools
// the model sees beside the exec's own, and (on a resume) the agent that was answering.

type Options = Pick<ExecOptions, 'handoffs' | 'maxHandoffs'>

/** The plan of an exec with handoffs; its transfer tools join `tools` (a name taken twice is refused). */
export function openHandoffs(options: Options, tools: Map<string, Tool>): HandoffPlan | undefined {
  if (!options.handoffs?.length) return undefined
  const plan = newPlan(resolveRoutes(options.handoffs), options.maxHandoffs)
  for (const tool of offer(plan, plan.first)) {
    if (tools.has(tool.spec.name))
      throw invalidOption('handoffs', 'names no tool of the exec already has', tool.spec.name)
    tools.set(tool.spec.name, tool)
  }
  return plan
}

/** A resume's handoffs: the plan, and the agent a paused state answered as when a handoff made it so. */
export type ResumedHandoffs = { plan: HandoffPlan; active?: Route }

/**
 * Finds the state's active agent among the resume's `handoffs`: the resume must be given the
 * handoffs again (as it is given the tools), or it cannot answer as that agent.
 */
export function resumeHandoffs(state: RunState, options: Options): ResumedHandoffs | undefined {
  const handedOver = (state.handoffsUsed ?? 0) > 0 && state.agent !== undefined
  if (!options.handoffs?.length) {
    if (handedOver)
      throw invalidOption(
        'handoffs',
        `the handoffs that reach agent ${state.agent}, which the state answers as`,
        undefined,
      )
    return undefined
  }
  const plan = newPlan(resolveRoutes(options.handoffs), options.maxHandoffs)
  const active = handedOver ? plan.byName.get(state.agent as string) : undefined
  if (handedOver && !active)
    throw invalidOption('handoffs', `handoffs that reach agent ${state.agent}, which the state answers as`, [
      ...plan.byName.keys(),
    ])
  return active ? { plan, active } : { plan }
}

/** The tools a resumed exec finds its state's tool names among: the active agent's, or the given ones. */
export function resumedTools(resumed: ResumedHandoffs | undefined, given: () => Tool[]): Tool[] {
  if (!resumed) return given()
  const { plan, active } = resumed
  return [...(active ? active.tools : given()), ...offer(plan, active ? active.next : plan.first)]
}

/**
 * Binds the plan to the opened exec, which answers as `agent` (its `agent` option); a resumed
 * one answers as its active agent again.
 */
export function attachHandoffs(ctx: ExecContext, plan: HandoffPlan | undefined, agent?: string, active?: Route): void {
  if (agent !== undefined) ctx.state.agent = agent
  if (!plan) return
  attachPlan(ctx, plan)
  if (active) becomeAgent(ctx, plan, active)
}
