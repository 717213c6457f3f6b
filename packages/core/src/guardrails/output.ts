import type { NestorError } from '../contract/errors.js'
import type { TextGuardrail } from '../contract/guardrail-types.js'
import type { UserMessage } from '../contract/types.js'
import type { ExecContext } from '../exec/context.js'
import { runCheck, trippedError, type Decision } from './check.js'

/** What the output guardrails decided: the trip that fails the exec, or the feedback the model gets. */
export type OutputJudgement = { trip: NestorError } | { feedback: UserMessage }

/**
 * The output guardrails on a final answer (its text, and its typed output when the exec has
 * one), all at once. A trip wins; else the feedback of every guardrail that asked for a retry
 * goes back to the model as one message. Undefined (at once, without guardrails) when all pass.
 * A stop's answer (a `stopAtTools` or control stop result) is text only: no typed output.
 */
export function checkOutput(
  ctx: ExecContext,
  text: string,
  output: unknown,
  typed = ctx.env.output !== undefined,
): OutputJudgement | undefined | Promise<OutputJudgement | undefined> {
  const list = ctx.env.guardrails?.output
  if (!list?.length) return undefined
  const site = typed ? { output, hasOutput: true } : {}
  const decisions = list.map((g) => runCheck(ctx, g, 'output', site, (gctx) => g.check(text, gctx)))
  if (decisions.some((d) => d instanceof Promise)) return Promise.all(decisions).then((settled) => judge(list, settled))
  return judge(list, decisions as Decision[])
}

function judge(list: readonly TextGuardrail[], decisions: readonly Decision[]): OutputJudgement | undefined {
  const feedback: string[] = []
  for (const [i, decision] of decisions.entries()) {
    const g = list[i] as TextGuardrail
    if (decision.verdict === 'tripwire') return { trip: trippedError(g.name, 'output', decision) }
    if (decision.verdict === 'retry') feedback.push(decision.reason)
  }
  if (feedback.length === 0) return undefined
  return { feedback: { role: 'user', content: feedback.join('\n\n') } }
}
