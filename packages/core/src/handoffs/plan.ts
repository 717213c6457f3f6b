import { NestorError } from '../contract/errors.js'
import type { Tool, ToolContext } from '../contract/types.js'
import type { ExecContext } from '../exec/context.js'
import { defineTool } from '../tools/tool.js'
import type { Route, Routes } from './routes.js'

/** An exec's handoffs while it runs: what it offers now, the call a turn took, the budget. */
export type HandoffPlan = Routes & {
  max: number
  /** The routes the active agent offers, by tool name. */
  offered: Map<string, Route>
  /** The transfer call the current turn takes: the first one the model made. */
  chosen?: string
  exec?: ExecContext
}

/** Not stored on the context: an exec without handoffs pays one failed lookup per round. */
const plans = new WeakMap<ExecContext, HandoffPlan>()
const transferTools = new WeakSet<Tool>()

export const planOf = (ctx: ExecContext): HandoffPlan | undefined => plans.get(ctx)

/** A transfer tool is the exec's own: a nested exec does not inherit it. */
export const isTransferTool = (tool: Tool): boolean => transferTools.has(tool)

export function newPlan(routes: Routes, max = 10): HandoffPlan {
  return { ...routes, max, offered: new Map() }
}

/** Binds a plan to its exec: the loop finds it there, and transfer calls read its state. */
export function attachPlan(ctx: ExecContext, plan: HandoffPlan): void {
  plan.exec = ctx
  plans.set(ctx, plan)
}

/** The transfer tools the model sees for `routes`: calling one asks the loop for the handoff. */
export function offer(plan: HandoffPlan, routes: readonly Route[]): Tool[] {
  plan.offered = new Map(routes.map((r) => [r.toolName, r]))
  return routes.map((route) => {
    const tool: Tool = {
      ...noArguments(),
      spec: { name: route.toolName, description: route.description, parameters: NO_ARGUMENTS },
      execute: (_args: unknown, call: ToolContext) => transfer(plan, route, call),
    }
    transferTools.add(tool)
    return tool
  })
}

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false }
let template: Tool | undefined
/** One tool compiled once: every transfer tool shares its argument check (an exec builds its own tools). */
const noArguments = (): Tool =>
  (template ??= defineTool({
    name: 'transfer',
    description: 'no arguments',
    parameters: NO_ARGUMENTS,
    execute: () => '',
  }) as Tool)

/** The body of a transfer call: the loop passes the conversation once the turn's calls are answered. */
function transfer(plan: HandoffPlan, route: Route, call: ToolContext): string {
  if (plan.chosen !== call.toolCallId)
    throw new Error(`not run: this turn already hands the conversation over (one handoff per turn)`)
  const used = plan.exec?.state.handoffsUsed ?? 0
  if (used >= plan.max)
    throw new NestorError('budget_exceeded', `not run: the handoff budget (maxHandoffs ${plan.max}) is used up`)
  return `Transferred to ${route.name}: ${route.name} answers from now on.`
}
