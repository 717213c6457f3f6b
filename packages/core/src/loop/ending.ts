import type { ExecResult } from '../contract/exec-types.js'
import type { NestorErrorLike } from '../contract/types.js'
import type { AssistantMessage, Message, ToolResultMessage } from '../contract/types.js'
import { statsFromReceipts } from '../calls/exec-stats.js'
import { emit, type ExecContext } from '../exec/context.js'

/**
 * Where the loop starts: fresh input, input still being read (a fork's, from the recorded run),
 * or the calls a paused exec left (runtime.resume).
 */
export type LoopStart =
  | { input: Message[] }
  | { recorded: Promise<Message[]> }
  | { resume: { message: AssistantMessage; remaining: string[] } }

/** How an exec ends: what its result says beyond the counters every result carries. */
export type Ending = {
  status: ExecResult['status']
  text?: string
  error?: NestorErrorLike
  pending?: ExecResult['pending']
  output?: unknown
  stopped?: ExecResult['stopped']
}

/** Emits agent_start, the first event of every exec; returns the input messages. */
export function announce(ctx: ExecContext, start: LoopStart): Message[] {
  const input = 'input' in start ? start.input : []
  emit(ctx, {
    type: 'agent_start',
    input,
    toolNames: [...ctx.tools.keys()],
    iterationBudget: ctx.state.iterationBudget,
  })
  return input
}

/** Ends an exec: builds its result and emits agent_end, always the last event. */
export function end(ctx: ExecContext, ending: Ending): ExecResult {
  const result = resultOf(ctx, ending)
  emit(ctx, { type: 'agent_end', result })
  return result
}

/**
 * The ExecResult of an exec in its current state; budget fields are always set. `withHistory:
 * false` leaves the history out (and orders receipts as they came): the last-resort result of an
 * exec whose history is what broke must not walk it again.
 */
export function resultOf(ctx: ExecContext, ending: Ending, withHistory = true): ExecResult {
  // Receipts leave redacted: their signature holds the call's arguments.
  const receipts = ctx.env.redact(ctx.state.receipts.slice())
  const history = withHistory ? ctx.state.history.slice() : []
  const result: ExecResult = {
    execId: ctx.execId,
    status: ending.status,
    text: ending.text ?? '',
    messages: withHistory ? ctx.state.history.slice(ctx.state.startIndex) : [],
    // Copies: a result never changes after it resolves, whatever still holds the live state.
    history,
    iterationsUsed: ctx.state.iterationsUsed,
    iterationBudget: ctx.state.iterationBudget,
    usage: { ...ctx.state.usage },
    totalUsage: { ...ctx.state.totalUsage },
    receipts,
    // Derived from the receipts the result carries, so anyone can recompute it from them.
    stats: withHistory ? statsFromReceipts(receipts, history) : statsFromReceipts(receipts),
  }
  if (ending.error) result.error = ctx.env.redact(ending.error)
  // The waiting calls' arguments leave redacted like events; only the state (needed to resume) keeps them.
  if (ending.pending)
    result.pending = { state: ending.pending.state, approvals: ctx.env.redact(ending.pending.approvals) }
  if ('output' in ending) result.output = ending.output
  if (ending.stopped) result.stopped = ctx.env.redact(ending.stopped)
  // A decision's name, beside the `{ reason, choice }` it came in.
  if (ctx.env.output?.spec.name === 'choice' && ending.output !== undefined)
    result.choice = (ending.output as { choice: string }).choice
  return result
}

export function textOf(message: AssistantMessage | ToolResultMessage): string {
  let text = ''
  for (const block of message.content) if (block.type === 'text') text += block.text
  return text
}
