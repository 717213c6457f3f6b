import type { NestorError } from '../contract/errors.js'
import type { ReceiptGuardrail, ToolGuardrail } from '../contract/guardrail-types.js'
import type { ToolCall, ToolResultMessage } from '../contract/types.js'
import type { ExecContext } from '../exec/context.js'
import { toToolOutput } from '../tools/tool.js'
import { runCheck, trippedError, type Decision } from './check.js'

/** What the tool guardrails decided before a call: reject it (the model reads why), or trip. */
export type BeforeJudgement = { reject: string } | { trip: NestorError }
/** After a call: the result the model reads instead, or a trip. */
export type AfterJudgement = { replace: ToolResultMessage } | { trip: NestorError }

type Judged<T> = T | undefined | Promise<T | undefined>

/**
 * The `before` checks of the tool guardrails, one after the other, on the call as it will run
 * (`args`: after an approver's edit). Each verdict joins `verdicts` (the receipt's). The first
 * reject or trip ends the checks; undefined when all pass (at once without any).
 */
export function beforeTool(
  ctx: ExecContext,
  call: ToolCall,
  args: Record<string, unknown>,
  verdicts: ReceiptGuardrail[],
): Judged<BeforeJudgement> {
  const list = ctx.env.guardrails?.tools
  if (!list?.length) return undefined
  const running = args === call.arguments ? call : { ...call, arguments: args }
  return inTurn(list, 'before', verdicts, (g) =>
    g.before
      ? runCheck(ctx, g, 'tool', { toolCallId: call.id, phase: 'before' }, (gctx) => g.before?.(running, gctx))
      : undefined,
  ) as Judged<BeforeJudgement>
}

/** The `after` checks on a call's result: each sees the result as the one before left it. */
export function afterTool(
  ctx: ExecContext,
  call: ToolCall,
  args: Record<string, unknown>,
  result: ToolResultMessage,
  verdicts: ReceiptGuardrail[],
): Judged<AfterJudgement> {
  const list = ctx.env.guardrails?.tools
  if (!list?.some((g) => g.after)) return undefined
  const running = args === call.arguments ? call : { ...call, arguments: args }
  let current = result
  return inTurn(
    list,
    'after',
    verdicts,
    (g) =>
      g.after
        ? runCheck(ctx, g, 'tool', { toolCallId: call.id, phase: 'after' }, (gctx) => g.after?.(running, current, gctx))
        : undefined,
    (d) => {
      if (d.verdict !== 'replace') return
      const output = toToolOutput(d.value)
      current = { ...current, content: output.content, isError: false }
      if (output.details !== undefined) current.details = output.details
      else delete current.details
    },
    () => (current === result ? undefined : { replace: current }),
  ) as Judged<AfterJudgement>
}

/**
 * Runs `check` on each guardrail in order without a tick for synchronous ones; records each
 * verdict; stops at the first reject or trip.
 */
function inTurn(
  list: readonly ToolGuardrail[],
  phase: 'before' | 'after',
  verdicts: ReceiptGuardrail[],
  check: (g: ToolGuardrail) => Decision | Promise<Decision> | undefined,
  onReplace?: (d: Decision) => void,
  last: () => BeforeJudgement | AfterJudgement | undefined = () => undefined,
): Judged<BeforeJudgement | AfterJudgement> {
  const step = (i: number): Judged<BeforeJudgement | AfterJudgement> => {
    for (; i < list.length; i++) {
      const g = list[i] as ToolGuardrail
      const decision = check(g)
      if (decision === undefined) continue
      if (decision instanceof Promise) {
        const at = i
        return decision.then((d) => stop(g, d) ?? step(at + 1))
      }
      const stopped = stop(g, decision)
      if (stopped) return stopped
    }
    return last()
  }
  const stop = (g: ToolGuardrail, d: Decision): BeforeJudgement | AfterJudgement | undefined => {
    const verdict: ReceiptGuardrail = { name: g.name, phase, verdict: d.verdict }
    if ('reason' in d && d.reason) verdict.reason = d.reason
    verdicts.push(verdict)
    if (d.verdict === 'tripwire') return { trip: trippedError(g.name, 'tool', d) }
    if (d.verdict === 'reject') return { reject: `rejected by guardrail ${g.name}: ${d.reason}` }
    onReplace?.(d)
    return undefined
  }
  return step(0)
}
