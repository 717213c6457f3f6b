import { callSignature } from '../base/canonical.js'
import { NestorError } from '../contract/errors.js'
import type { Message, ToolCall } from '../contract/types.js'
import { emit, type ExecContext, type ExecEnv } from '../exec/context.js'
import { ToolSet } from '../exec/tool-set.js'
import { eventRedactor } from '../events/redact.js'
import { pairingProblem } from '../options/supplied-history.js'
import { indexTools } from '../tools/registry.js'
import { offer, planOf, type HandoffPlan } from './plan.js'
import type { Route } from './routes.js'

// The loop's two hook points: before a round, which transfer call the turn takes; after it, once
// every other call is answered (run, or decided after a pause), the exec goes on as the target.

/** Before a round: the first transfer call of the turn is the one taken; later ones are not run. */
export function chooseHandoff(ctx: ExecContext, calls: readonly ToolCall[]): void {
  const plan = planOf(ctx)
  if (plan) plan.chosen = calls.find((call) => plan.offered.has(call.name))?.id
}

/**
 * After a round that did not end the exec: passes the conversation to the chosen target. A
 * transfer refused for the budget fails the exec `budget_exceeded`; one skipped for another
 * reason (steering, a stop) leaves the exec as it is.
 */
export async function passHandoff(ctx: ExecContext, calls: readonly ToolCall[]): Promise<NestorError | undefined> {
  const plan = planOf(ctx)
  const id = plan?.chosen
  if (!plan || id === undefined) return undefined
  plan.chosen = undefined
  const call = calls.find((c) => c.id === id)
  const route = call && plan.offered.get(call.name)
  const answer = ctx.state.history.findLast((m) => m.role === 'toolResult' && m.toolCallId === id)
  if (!route || !answer || answer.role !== 'toolResult') return undefined
  if (answer.isError)
    return ctx.state.handoffsUsed >= plan.max
      ? new NestorError('budget_exceeded', `maxHandoffs ${plan.max} reached: the exec would hand over once more`)
      : undefined
  const from = ctx.state.agent
  await route.onHandoff?.({ ...(from !== undefined && { from }), to: route.name, toolCallId: id, execId: ctx.execId })
  if (route.inputFilter) filterHistory(ctx, route)
  becomeAgent(ctx, plan, route)
  // Handing over to the same agent again later is a new handoff, not a duplicate call.
  ctx.state.succeeded.delete(callSignature(call.name, call.arguments))
  // A forced choice named the previous agent's tools: the target chooses for itself.
  ctx.state.toolChoice = undefined
  ctx.state.handoffsUsed++
  emit(ctx, { type: 'handoff', ...(from !== undefined && { from }), to: route.name, toolCallId: id })
  return undefined
}

/**
 * The exec as `route`'s agent: its instructions, model, provider, output and tools replace the
 * current ones; the rest of the environment (budgets, approvals, hooks, streams) stays.
 */
export function becomeAgent(ctx: ExecContext, plan: HandoffPlan, route: Route): void {
  const { profile } = route
  const env = ctx.env
  const provider = profile.provider ?? env.provider
  const added = (provider.secrets?.() ?? []).filter((s) => s.length >= 4 && !env.secrets.includes(s))
  const secrets = added.length > 0 ? [...env.secrets, ...added] : env.secrets
  // Fields set to undefined, not deleted: a deleted key would turn every env into a slow dictionary.
  const next: ExecEnv = {
    ...env,
    provider,
    model: profile.model ?? env.model,
    secrets,
    redact: added.length > 0 ? eventRedactor(secrets) : env.redact,
    system: profile.instructions ?? env.system,
    output: route.output,
  }
  ctx.env = next
  ctx.tools = new ToolSet(indexTools([...route.tools, ...offer(plan, route.next)]), undefined, ctx.tools.strict)
  ctx.state.agent = route.name
}

/** The target's history, shaped by its inputFilter; it must keep every tool call answered. */
function filterHistory(ctx: ExecContext, route: Route): void {
  const history = ctx.state.history
  const kept = (route.inputFilter as (h: Message[]) => Message[])(history.slice())
  const problem = Array.isArray(kept) ? pairingProblem(kept) : undefined
  if (!Array.isArray(kept) || problem)
    throw new NestorError(
      'invalid_options',
      `inputFilter of handoff ${route.name} returned ${Array.isArray(kept) ? `a broken history: ${problem?.why((i) => `message ${i}`)}` : 'no array of messages'}`,
    )
  // The exec's own messages start at the first kept message that was its own.
  const own = new Set(history.slice(ctx.state.startIndex))
  const start = kept.findIndex((m) => own.has(m))
  history.splice(0, history.length, ...kept)
  ctx.state.startIndex = start === -1 ? kept.length : start
}
