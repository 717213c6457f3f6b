import { callSignature } from '../base/canonical.js'
import { inPool } from '../base/pool.js'
import type { NestorError } from '../contract/errors.js'
import type { ExecResult } from '../contract/exec-types.js'
import type {
  ApprovalRequest,
  AssistantMessage,
  ReceiptStatus,
  ToolCall,
  ToolReceipt,
  ToolResultMessage,
} from '../contract/types.js'
import { checkToolCallBudgets } from '../exec/budget.js'
import { append, type ExecContext } from '../exec/context.js'
import type { WaitingInput } from '../state/answer-journal.js'
import { recordTool } from '../state/tree-journal.js'
import { closeCall, NOT_RUN, notRunAnswer } from './answers.js'
import { listLaterApprovals } from './approvals.js'
import type { CallOutcome } from './passage.js'
import { runToolCall } from './stages.js'

/** What a tool round came to; the loop decides from it how the round ends. */
export type ToolRound = {
  results: ToolResultMessage[]
  /** Calls waiting for an approval decision (the exec pauses). */
  pending: ApprovalRequest[]
  /** Questions waiting for an answer (the exec pauses). */
  inputs: WaitingInput[]
  /** Ids of the calls still without a result when the exec paused, in the model's order. */
  remaining: string[]
  tripped?: { name: string; count: number }
  /** The result of a `stopAtTools` call: the exec ends with it. */
  stoppedAt?: ToolResultMessage
  /** A call whose control envelope decided stop: the exec ends with its result. */
  controlStop?: { result: ToolResultMessage; stopped: NonNullable<ExecResult['stopped']> }
  /** A call found a tool-call budget used up: it and the calls after it were skipped. */
  overBudget?: NestorError
}

/** A round while its calls run: each call's answer in the model's order, and what stops the rest. */
type Running = {
  readonly round: ToolRound
  readonly answers: ({ result: ToolResultMessage; replayed?: true } | undefined)[]
  /** Why the calls not yet started are answered without running (the first reason wins). */
  skipWith?: string
  paused: boolean
  failed?: { error: unknown }
}

/**
 * Runs the tool calls of one assistant message, in the model's order or in parallel, and appends
 * their results to the history in call order. Every call leaves with exactly one result unless the
 * exec pauses, in which case the calls without one are listed in `remaining`.
 */
export async function runToolRound(ctx: ExecContext, calls: ToolCall[]): Promise<ToolRound> {
  const run: Running = { round: { results: [], pending: [], inputs: [], remaining: [] }, answers: [], paused: false }
  const { round } = run
  const parallel = ctx.env.settings.toolExecution === 'parallel'
  if (parallel && calls.length > 1) {
    const recordedFrom = ctx.state.receipts.length
    // Identical calls in one message run one after the other, so the duplicate gate sees the first.
    const bySignature = new Map<string, Promise<void>>()
    await inPool(calls.length, ctx.env.settings.maxToolConcurrency, (index) => {
      const call = calls[index] as ToolCall
      const signature = callSignature(call.name, call.arguments)
      const done = (bySignature.get(signature) ?? Promise.resolve()).then(() => runCall(ctx, run, index, call))
      bySignature.set(signature, done)
      return done
    })
    receiptsInCallOrder(ctx.state.receipts, recordedFrom, calls)
  } else {
    for (const [index, call] of calls.entries()) {
      if (run.paused || run.failed) break
      await runCall(ctx, run, index, call)
    }
  }
  for (const [index, call] of calls.entries()) {
    const answer = run.answers[index]
    if (!answer && run.failed) continue
    if (answer) {
      round.results.push(answer.result)
      append(ctx, answer.result, answer.replayed)
    } else {
      round.remaining.push(call.id)
    }
  }
  if (run.failed) throw run.failed.error
  if (run.paused && !parallel) await listLaterApprovals(ctx, calls, round.pending)
  return round
}

/**
 * Parallel calls record their receipts as they finish: this round's (from `from` on) are put back
 * in the order of its calls, so `result.receipts` follow the history (docs/governance.md "Receipts").
 */
function receiptsInCallOrder(receipts: ToolReceipt[], from: number, calls: readonly ToolCall[]): void {
  const index = new Map(calls.map((call, i) => [call.id, i]))
  const round = receipts.splice(from)
  round.sort((a, b) => (index.get(a.toolCallId) ?? calls.length) - (index.get(b.toolCallId) ?? calls.length))
  receipts.push(...round)
}

/** One call: answered without running when the gate says so, else through its stages, then settled. */
async function runCall(ctx: ExecContext, run: Running, index: number, call: ToolCall): Promise<void> {
  const skip = gate(ctx, run)
  if (skip) {
    run.answers[index] = closeCall(ctx, call, notRunAnswer(ctx, call, skip.status, skip.text))
    return
  }
  // Counted when it starts, so parallel calls see each other; a call that pauses runs (and
  // counts) again when it is resumed.
  ctx.state.toolCallsUsed++
  ctx.tree.toolCalls++
  const outcome = await runToolCall(ctx, call)
  if (outcome.kind === 'pause') {
    ctx.state.toolCallsUsed--
    ctx.tree.toolCalls--
  }
  const saved = settle(ctx, run, index, call, outcome)
  if (saved)
    await saved.catch((error: unknown) => {
      // The journal failed: the call has its result, but the exec cannot go on unrecorded.
      run.failed ??= { error }
      run.skipWith ??= NOT_RUN.execFailed
    })
}

/** Whether a call may start: an abort, an earlier call's stop, steering or a used-up budget answer it instead. */
function gate(ctx: ExecContext, run: Running): { status: ReceiptStatus; text: string } | undefined {
  if (ctx.control.controller.signal.aborted) return { status: 'aborted', text: NOT_RUN.aborted }
  if (run.skipWith !== undefined) return { status: 'skipped', text: run.skipWith }
  if (ctx.env.settings.steering === 'interrupt' && ctx.control.steering.pending)
    return { status: 'skipped', text: NOT_RUN.steering }
  const overBudget = checkToolCallBudgets(ctx)
  if (!overBudget) return undefined
  run.round.overBudget ??= overBudget
  run.skipWith ??= NOT_RUN.toolBudget
  return { status: 'skipped', text: NOT_RUN.toolBudget }
}

/** A call's outcome, closed and recorded; the journal append is what the next call waits for. */
function settle(
  ctx: ExecContext,
  run: Running,
  index: number,
  call: ToolCall,
  outcome: CallOutcome,
): Promise<void> | undefined {
  const { round } = run
  if (outcome.kind === 'pause') {
    run.paused = true
    round.pending.push(...outcome.requests)
    round.inputs.push(...outcome.inputs)
    return undefined
  }
  run.answers[index] = outcome.replayed ? { result: outcome.result, replayed: true } : { result: outcome.result }
  closeCall(ctx, call, outcome, outcome.replayed)
  if (outcome.thrown) {
    // A hook (or a bug) threw: the exec will fail with it, but only once every call that is
    // running has its result and receipt, so nothing of this round arrives after agent_end.
    // The loop answers the calls never started when it repairs the history.
    run.failed ??= outcome.thrown
    run.skipWith ??= NOT_RUN.execFailed
    return undefined
  }
  if (outcome.tripped && !round.tripped) {
    const count = ctx.state.streaks.get(outcome.receipt.signature) ?? ctx.env.settings.breakerThreshold
    round.tripped = { name: call.name, count }
    run.skipWith ??= NOT_RUN.breaker(call.name)
  }
  if (ctx.env.settings.stopAtTools.has(call.name) && !outcome.result.isError && !round.stoppedAt) {
    round.stoppedAt = outcome.result
    run.skipWith ??= NOT_RUN.stoppedAt(call.name)
  }
  const control = outcome.receipt.control
  if (control?.decision === 'stop' && !round.controlStop) {
    const stopped = { reason: 'control_stop' as const, toolName: call.name, toolCallId: call.id, control }
    round.controlStop = { result: outcome.result, stopped }
    run.skipWith ??= NOT_RUN.controlStop(call.name)
  }
  // Durable before the next call starts: a crash from here on never runs this body again.
  return outcome.replayed ? undefined : recordTool(ctx.journal, ctx.state.iterationsUsed, call, outcome)
}

export const toolCallsOf = (message: AssistantMessage): ToolCall[] =>
  message.content.filter((c): c is ToolCall => c.type === 'toolCall')

/** Answers calls without running them, in order (a cut, failed or aborted turn, a repair). */
export function answerNotRun(ctx: ExecContext, calls: ToolCall[], status: 'skipped' | 'aborted', text: string) {
  const results: ToolResultMessage[] = []
  for (const call of calls) {
    const { result } = closeCall(ctx, call, notRunAnswer(ctx, call, status, text))
    append(ctx, result)
    results.push(result)
  }
  return results
}

/** After an unexpected throw: every call in the last assistant message gets a result. */
export function repairHistory(ctx: ExecContext): void {
  const lastAssistant = ctx.state.history.findLastIndex((m) => m.role === 'assistant')
  if (lastAssistant < ctx.state.startIndex) return
  const message = ctx.state.history[lastAssistant] as AssistantMessage
  const answered = new Set(
    ctx.state.history.slice(lastAssistant + 1).flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])),
  )
  answerNotRun(
    ctx,
    toolCallsOf(message).filter((c) => !answered.has(c.id)),
    'skipped',
    NOT_RUN.execFailed,
  )
}
