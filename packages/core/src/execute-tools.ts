import { callSignature } from './canonical.js'
import { emit, type ExecContext } from './exec-context.js'
import { answerUnrun, closeCall } from './answer-call.js'
import { NOT_RUN, runToolCall, type CallOutcome } from './tool-call.js'
import { idempotencyKeyOf } from './idempotency-key.js'
import { approvalContext, approvalRequest, needsApprovalOf } from './approvals.js'
import type { ApprovalRequest, ReceiptStatus, ToolCall, ToolResultMessage } from './types.js'
import { markPaused, recordTool } from './durable.js'

export const SKIPPED_FOR_STEERING = 'Skipped due to queued user message'

export type ToolsOutcome = {
  results: ToolResultMessage[]
  /** Calls waiting for an approval decision (the exec pauses). */
  pending: ApprovalRequest[]
  /** Ids of the calls still without a result when the exec paused, in the model's order. */
  remaining: string[]
  tripped?: { name: string; count: number }
  /** The result of a `stopAtTools` call: the exec ends with it. */
  stoppedAt?: ToolResultMessage
}

/**
 * Runs the tool calls of one assistant message, in the model's order or in parallel, and appends
 * their results to the history in call order. Every call leaves with exactly one result unless the
 * exec pauses, in which case the calls without one are listed in `remaining`.
 */
export async function executeToolCalls(ctx: ExecContext, calls: ToolCall[], iteration: number): Promise<ToolsOutcome> {
  const out: ToolsOutcome = { results: [], pending: [], remaining: [] }
  const slots: (ToolResultMessage | undefined)[] = new Array(calls.length)
  const replayed: boolean[] = []
  let stopReason: string | undefined
  let paused = false
  let failed: { error: unknown } | undefined

  const settle = (index: number, call: ToolCall, outcome: CallOutcome): Promise<void> | undefined => {
    if (outcome.kind === 'pause') {
      paused = true
      out.pending.push(...outcome.requests)
      return undefined
    }
    slots[index] = outcome.result
    if (outcome.replayed) replayed[index] = true
    closeCall(ctx, call, outcome, outcome.replayed)
    if (outcome.thrown) {
      // A hook (or a bug) threw: the exec will fail with it, but only once every call that is
      // running has its result and receipt, so nothing of this round arrives after agent_end.
      // The loop answers the calls never started when it repairs the history.
      failed ??= outcome.thrown
      stopReason ??= NOT_RUN
      return undefined
    }
    if (outcome.tripped && !out.tripped) {
      out.tripped = {
        name: call.name,
        count: ctx.state.streaks.get(outcome.receipt.signature) ?? ctx.env.settings.breakerThreshold,
      }
      stopReason ??= `Skipped: tool ${call.name} tripped the circuit breaker`
    }
    if (ctx.env.settings.stopAtTools.has(call.name) && !outcome.result.isError && !out.stoppedAt) {
      out.stoppedAt = outcome.result
      stopReason ??= `Skipped: the exec stopped at tool ${call.name}`
    }
    // Durable before the next call starts: a crash from here on never runs this body again.
    return outcome.replayed ? undefined : recordTool(ctx, iteration, call, outcome.result, outcome.receipt)
  }

  const process = async (index: number, call: ToolCall): Promise<void> => {
    const skip = (status: ReceiptStatus, text: string) => {
      slots[index] = answerUnrun(ctx, call, status, text).result
    }
    if (ctx.control.controller.signal.aborted) return skip('aborted', 'aborted')
    if (stopReason !== undefined) return skip('skipped', stopReason)
    if (ctx.env.settings.steering === 'interrupt' && ctx.control.steering.pending) {
      return skip('skipped', SKIPPED_FOR_STEERING)
    }
    const saved = settle(index, call, await runToolCall(ctx, call, iteration))
    if (saved)
      await saved.catch((error: unknown) => {
        // The journal failed: the call has its result, but the exec cannot go on unrecorded.
        failed ??= { error }
        stopReason ??= NOT_RUN
      })
  }

  if (ctx.env.settings.toolExecution === 'parallel' && calls.length > 1) {
    // Identical calls in one message run one after the other, so the duplicate gate sees the first.
    const bySignature = new Map<string, Promise<void>>()
    let next = 0
    const worker = async () => {
      while (next < calls.length) {
        const index = next++
        const call = calls[index] as ToolCall
        const signature = callSignature(call.name, call.arguments)
        const before = bySignature.get(signature)
        const run = (before ?? Promise.resolve()).then(() => process(index, call))
        bySignature.set(signature, run)
        await run
      }
    }
    const width = Math.min(ctx.env.settings.maxToolConcurrency, calls.length)
    await Promise.all(Array.from({ length: width }, worker))
  } else {
    for (const [index, call] of calls.entries()) {
      if (paused || failed) break
      await process(index, call)
    }
  }

  for (const [index, call] of calls.entries()) {
    const result = slots[index]
    if (!result && failed) continue
    if (result) {
      out.results.push(result)
      ctx.state.history.push(result)
      if (replayed[index]) {
        emit(ctx, { type: 'message_start', message: result, replayed: true })
        emit(ctx, { type: 'message_end', message: result, replayed: true })
      } else {
        emit(ctx, { type: 'message_start', message: result })
        emit(ctx, { type: 'message_end', message: result })
      }
    } else {
      out.remaining.push(call.id)
    }
  }
  if (failed) throw failed.error
  if (paused && ctx.env.settings.toolExecution !== 'parallel') await listLaterApprovals(ctx, calls, out, iteration)
  return out
}

/**
 * After a sequential pause, the calls behind the first pending one wait too (their order matters).
 * Those that will need a decision are listed now, so a person can decide them all at once.
 */
async function listLaterApprovals(
  ctx: ExecContext,
  calls: ToolCall[],
  out: ToolsOutcome,
  iteration: number,
): Promise<void> {
  const first = out.pending[0]
  if (!first) return
  const start = calls.findIndex((c) => c.id === first.toolCallId) + 1
  for (const call of calls.slice(start)) {
    const tool = ctx.env.tools.get(call.name)
    if (!tool?.needsApproval || ctx.state.decisions.has(call.id)) continue
    const checked = tool.validate ? tool.validate(call.arguments) : { ok: true as const, value: call.arguments }
    if (!checked.ok) continue
    const args = checked.value as Record<string, unknown>
    const needs = await needsApprovalOf(
      tool,
      args,
      approvalContext(ctx, call, idempotencyKeyOf(ctx, iteration, call.id)),
    )
    if (!needs) continue
    const request = approvalRequest(ctx, call, args)
    markPaused(ctx, iteration, request)
    out.pending.push(request)
  }
}
