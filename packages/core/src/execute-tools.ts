import { callSignature } from './canonical.js'
import { emit, type ExecContext } from './exec-context.js'
import { errorResult, makeReceipt } from './receipt.js'
import { runToolCall, type CallOutcome } from './tool-call.js'
import { approvalContext, needsApprovalOf } from './approvals.js'
import type { ApprovalRequest, ReceiptStatus, ToolCall, ToolResultMessage } from './types.js'
import { markPaused, recordTool } from './durable.js'

export const SKIPPED_FOR_STEERING = 'Skipped due to queued user message'

const FAILED = 'Tool call not executed: the exec failed'

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
  let failed: { thrown: unknown } | undefined

  const settle = (index: number, call: ToolCall, outcome: CallOutcome): Promise<void> | undefined => {
    if (outcome.kind === 'pause') {
      paused = true
      out.pending.push(...outcome.requests)
      return undefined
    }
    slots[index] = outcome.result
    ctx.receipts.push(outcome.receipt)
    const end = {
      type: 'tool_end' as const,
      toolCallId: call.id,
      toolName: call.name,
      result: outcome.result,
      isError: outcome.result.isError,
      durationMs: outcome.receipt.durationMs,
      receipt: outcome.receipt,
    }
    if (outcome.replayed) replayed[index] = true
    emit(ctx, outcome.replayed ? { ...end, replayed: true } : end)
    if (outcome.tripped && !out.tripped) {
      out.tripped = {
        name: call.name,
        count: ctx.streaks.get(outcome.receipt.signature) ?? ctx.settings.breakerThreshold,
      }
      stopReason ??= `Skipped: tool ${call.name} tripped the circuit breaker`
    }
    if (ctx.settings.stopAtTools.has(call.name) && !outcome.result.isError && !out.stoppedAt) {
      out.stoppedAt = outcome.result
      stopReason ??= `Skipped: the exec stopped at tool ${call.name}`
    }
    // Durable before the next call starts: a crash from here on never runs this body again.
    return outcome.replayed ? undefined : recordTool(ctx, iteration, call, outcome.result, outcome.receipt)
  }

  const process = async (index: number, call: ToolCall): Promise<void> => {
    if (ctx.controller.signal.aborted) return skip(ctx, slots, index, call, 'aborted', 'aborted')
    if (stopReason !== undefined) return skip(ctx, slots, index, call, 'skipped', stopReason)
    if (ctx.settings.steering === 'interrupt' && ctx.steering.pending) {
      return skip(ctx, slots, index, call, 'skipped', SKIPPED_FOR_STEERING)
    }
    let outcome: CallOutcome
    try {
      outcome = await runToolCall(ctx, call, iteration)
    } catch (thrown) {
      // A hook (or a bug) threw: the exec will fail with it, but only once every call that is
      // running has its result and receipt, so nothing of this round arrives after agent_end.
      // The loop answers this call (and those never started) when it repairs the history.
      failed ??= { thrown }
      stopReason ??= FAILED
      return
    }
    const saved = settle(index, call, outcome)
    if (saved)
      await saved.catch((thrown: unknown) => {
        // The journal failed: the call has its result, but the exec cannot go on unrecorded.
        failed ??= { thrown }
        stopReason ??= FAILED
      })
  }

  if (ctx.settings.toolExecution === 'parallel' && calls.length > 1) {
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
    const width = Math.min(ctx.settings.maxToolConcurrency, calls.length)
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
      ctx.history.push(result)
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
  if (failed) throw failed.thrown
  if (paused && ctx.settings.toolExecution !== 'parallel') await listLaterApprovals(ctx, calls, out, iteration)
  return out
}

function skip(
  ctx: ExecContext,
  slots: (ToolResultMessage | undefined)[],
  index: number,
  call: ToolCall,
  status: ReceiptStatus,
  text: string,
): void {
  const result = errorResult(call.id, call.name, text)
  const receipt = makeReceipt({
    toolCallId: call.id,
    toolName: call.name,
    execId: ctx.execId,
    depth: ctx.depth,
    signature: callSignature(call.name, call.arguments),
    status,
    attempts: 0,
    cached: false,
    startedAt: Date.now(),
    durationMs: 0,
  })
  slots[index] = result
  ctx.receipts.push(receipt)
  emit(ctx, {
    type: 'tool_end',
    toolCallId: call.id,
    toolName: call.name,
    result,
    isError: true,
    durationMs: 0,
    receipt,
  })
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
    const tool = ctx.tools.get(call.name)
    if (!tool?.needsApproval || ctx.decisions.has(call.id)) continue
    const checked = tool.validate ? tool.validate(call.arguments) : { ok: true as const, value: call.arguments }
    if (!checked.ok) continue
    const args = checked.value as Record<string, unknown>
    const needs = await needsApprovalOf(tool, args, approvalContext(ctx, call))
    if (!needs) continue
    const request: ApprovalRequest = {
      toolCallId: call.id,
      toolName: call.name,
      args,
      execId: ctx.execId,
      depth: ctx.depth,
      path: ctx.path,
    }
    markPaused(ctx, iteration, request)
    out.pending.push(request)
  }
}
