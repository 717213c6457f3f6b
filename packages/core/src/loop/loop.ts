import { ABORTED, raceAbort } from '../base/abort-watch.js'
import { callSignature } from '../base/canonical.js'
import { generateId } from '../base/ids.js'
import { NestorError } from '../contract/errors.js'
import type { ExecResult } from '../contract/exec-types.js'
import type { ApprovalRequest, AssistantMessage, Message, ReceiptStatus, ToolCall } from '../contract/types.js'
import type { ToolResultMessage } from '../contract/types.js'
import { addUsage } from '../contract/usage.js'
import { closeCall, NOT_RUN, notRunAnswer, receiptsInCallOrder } from '../calls/answers.js'
import { approvalContext, approvalRequest, needsApprovalOf, previewOf } from '../calls/approvals.js'
import { idempotencyKeyOf } from '../calls/idempotency-key.js'
import { runToolCall, type CallOutcome } from '../calls/stages.js'
import { checkBudgets, checkToolCallBudgets, iterationLimit } from '../exec/budget.js'
import { checkCostBudgets } from '../exec/cost-budget.js'
import type { EventPayload } from '../contract/event-types.js'
import { emit, type ExecContext } from '../exec/context.js'
import { asInternal } from '../exec/hooks.js'
import { refusalError, type Verdict } from '../schema/output.js'
import { toRunState } from '../state/run-state.js'
import { journalLoaded, markPaused, recordTool, recordTurn, replayedTurn, takeMessages } from '../state/tree-journal.js'
import { announce, end, textOf, type Ending, type LoopStart } from './ending.js'
import type { TurnOutcome } from './stream-turn.js'
import { fromJournal, fromProvider, requestFor, retryOnOverflow } from './turns.js'
import { fitWindow } from '../window/fit.js'
import { estimateTokens } from '../window/estimate.js'
import { saveTurn } from '../sessions/exec-session.js'
import { journalFlag } from '../state/edited-steps.js'

/**
 * The tool loop. Each round takes a model turn (from the journal when it was recorded, else from
 * the provider); tool calls are run through their stages and fed back, text ends the round.
 * Steering is injected before each model call, follow-ups when the loop would end. Every exit goes
 * through `end`, so agent_end is always the last event and the history invariant (each call
 * answered once) holds. The journal is a seam, not a thread: a turn's source, and the recording
 * of finished turns and calls, are the only places the loop touches it.
 */
export async function runLoop(ctx: ExecContext, start: LoopStart): Promise<ExecResult> {
  if ('recorded' in start) {
    // A fork without its input reads it first; one it cannot read fails the fork with why.
    const signal = ctx.control.controller.signal
    const input = await raceAbort(start.recorded, signal).catch((error: unknown) => asInternal(error))
    if (!Array.isArray(input)) {
      announce(ctx, { input: [] })
      return end(ctx, input === ABORTED ? aborted(ctx) : { status: 'failed', error: input })
    }
    start = { input }
  }
  for (const message of announce(ctx, start)) append(ctx, message)
  let text = ''
  let output: unknown
  try {
    // exec() returns before the first model call is built, so steering sent right after it
    // still joins that call.
    await journalLoaded(ctx.journal)
    if ('resume' in start) {
      // The paused turn finishes here: its remaining calls run, then its turn_end closes it.
      const { message, remaining } = start.resume
      const wanted = new Set(remaining)
      const round = await runToolRound(
        ctx,
        toolCallsOf(message).filter((c) => wanted.has(c.id)),
      )
      await endTurn(ctx, { type: 'turn_end', iteration: ctx.state.iterationsUsed, message, toolResults: round.results })
      const stop = afterTools(ctx, round)
      if (stop) return end(ctx, stop)
    }
    let wantsTools = true
    outer: while (true) {
      while (wantsTools || ctx.control.steering.pending) {
        // After an abort no model call starts and no iteration is counted.
        if (ctx.control.controller.signal.aborted) return end(ctx, aborted(ctx))
        const iteration = ctx.state.iterationsUsed + 1
        const steering = takeMessages(ctx.journal, iteration, () => ctx.control.steering.drain())
        if (steering.saved) await steering.saved
        appendTaken(ctx, steering)
        const budgetError = checkBudgets(ctx)
        if (budgetError) return end(ctx, { status: 'failed', error: budgetError })
        if (ctx.state.iterationsUsed >= ctx.state.iterationBudget)
          return end(ctx, { status: 'failed', error: iterationLimit(ctx) })

        if (ctx.env.context) await fitWindow(ctx, iteration)
        // A turn comes from the journal when this run recorded it, else from the provider.
        const recorded = replayedTurn(ctx.journal, iteration, ctx.state.history, ctx.state.startIndex)
        let turn: TurnOutcome
        if (recorded) {
          beginTurn(ctx, iteration, recorded.model)
          turn = fromJournal(ctx, recorded)
        } else {
          const preparing = requestFor(ctx, iteration)
          const request = preparing instanceof Promise ? await preparing : preparing
          if (!request) return end(ctx, aborted(ctx))
          const overBudget = await checkCostBudgets(ctx, request, estimateTokens)
          if (overBudget) return end(ctx, { status: 'failed', error: overBudget })
          beginTurn(ctx, iteration, request.model)
          turn = await fromProvider(ctx, iteration, request, steering.messages.length > 0)
          if (ctx.env.context) turn = await retryOnOverflow(ctx, iteration, turn)
        }
        const { message, error } = turn
        ctx.state.history.push(message)
        addUsage(ctx.state.usage, message.usage)
        addUsage(ctx.state.totalUsage, message.usage)
        ctx.tree.tokens += message.usage.total
        ctx.tree.costUsd += message.usage.cost?.total ?? 0
        const calls = uniqueCalls(ctx, message)
        const failed = message.stopReason === 'error' || message.stopReason === 'aborted'
        if (!recorded && !failed) {
          // Durable before any tool of this turn runs: a crash from here on never pays for the turn again.
          const saved = recordTurn(ctx.journal, iteration, ctx.execId, ctx.state.history, ctx.state.startIndex)
          if (saved) await saved
        }

        if (failed) {
          const abortedTurn = message.stopReason === 'aborted'
          const results = answerNotRun(
            ctx,
            calls,
            abortedTurn ? 'aborted' : 'skipped',
            abortedTurn ? NOT_RUN.aborted : NOT_RUN.modelFailed,
          )
          await endTurn(ctx, { type: 'turn_end', iteration, message, toolResults: results })
          if (abortedTurn) return end(ctx, aborted(ctx))
          const cause =
            error ??
            new NestorError('provider_error', message.errorMessage ?? 'model call failed', {
              provider: message.provider,
            })
          return end(ctx, { status: 'failed', error: cause })
        }
        if (calls.length === 0) {
          // The model answered in text: typed output judges it, or a refusal fails the exec.
          text = textOf(message)
          const verdict: Verdict | undefined = ctx.env.output
            ? ctx.env.output.judge(message, text)
            : message.refusal !== undefined
              ? { kind: 'fail', error: refusalError(message, text) }
              : undefined
          await endTurn(ctx, { type: 'turn_end', iteration, message, toolResults: [] })
          if (verdict?.kind === 'fail') return end(ctx, { status: 'failed', text, error: verdict.error })
          if (verdict?.kind === 'retry') {
            // The issues go back to the model; the loop asks again within the iteration budget.
            append(ctx, verdict.message)
            continue
          }
          if (verdict?.kind === 'ok') output = verdict.value
          wantsTools = false
          continue
        }
        if (message.stopReason === 'length') {
          const results = answerNotRun(ctx, calls, 'skipped', NOT_RUN.lengthCut)
          await endTurn(ctx, { type: 'turn_end', iteration, message, toolResults: results })
          continue
        }
        // The model called tools.
        const round = await runToolRound(ctx, calls)
        await endTurn(ctx, { type: 'turn_end', iteration, message, toolResults: round.results })
        const stop = afterTools(ctx, round)
        if (stop) return end(ctx, stop)
        const choice = ctx.state.toolChoice
        if (ctx.env.settings.resetToolChoice && choice !== undefined && choice !== 'auto' && choice !== 'none')
          ctx.state.toolChoice = 'auto'
      }
      const followUps = takeMessages(ctx.journal, ctx.state.iterationsUsed + 1, () => ctx.control.followUp.drain())
      if (followUps.saved) await followUps.saved
      if (followUps.messages.length === 0) break outer
      appendTaken(ctx, followUps)
      wantsTools = true
    }
    return end(ctx, ctx.env.output ? { status: 'completed', text, output } : { status: 'completed', text })
  } catch (thrown) {
    // A hook or a bug threw: answer whatever is unanswered and fail with the error as data.
    repairHistory(ctx)
    const error = asInternal(thrown)
    return end(ctx, ctx.control.controller.signal.aborted ? aborted(ctx) : { status: 'failed', error })
  }
}

/** A turn ends: its turn_end, then its one session write (when the exec has a session). */
async function endTurn(ctx: ExecContext, event: Extract<EventPayload, { type: 'turn_end' }>): Promise<void> {
  emit(ctx, event)
  await saveTurn(ctx)
}

/** A model turn opens (live or replayed): the iteration is counted here and only here. */
function beginTurn(ctx: ExecContext, iteration: number, model: string): void {
  ctx.state.iterationsUsed = iteration
  ctx.tree.iterations++
  emit(ctx, { type: 'turn_start', iteration, iterationBudget: ctx.state.iterationBudget, model })
}

/** Steering or follow-up messages taken before a model turn join the history. */
function appendTaken(ctx: ExecContext, taken: { messages: Message[]; replayed: boolean }): void {
  for (const message of taken.messages) append(ctx, message, taken.replayed)
}

/** Adds a message to the history with its message events (`replayed` when it came from the journal). */
export function append(ctx: ExecContext, message: Message, replayed = false): void {
  ctx.state.history.push(message)
  if (replayed) {
    emit(ctx, { type: 'message_start', message, ...journalFlag(message) })
    emit(ctx, { type: 'message_end', message, ...journalFlag(message) })
    return
  }
  emit(ctx, { type: 'message_start', message })
  emit(ctx, { type: 'message_end', message })
}

/** What a tool round came to. */
type ToolRound = {
  results: ToolResultMessage[]
  /** Calls waiting for an approval decision (the exec pauses). */
  pending: ApprovalRequest[]
  /** Ids of the calls still without a result when the exec paused, in the model's order. */
  remaining: string[]
  tripped?: { name: string; count: number }
  /** The result of a `stopAtTools` call: the exec ends with it. */
  stoppedAt?: ToolResultMessage
  /** A call whose control envelope decided stop: the exec ends with its result. */
  controlStop?: { result: ToolResultMessage; stopped: NonNullable<Ending['stopped']> }
  /** A call found a tool-call budget used up: it and the calls after it were skipped. */
  overBudget?: NestorError
}

/**
 * Runs the tool calls of one assistant message, in the model's order or in parallel, and appends
 * their results to the history in call order. Every call leaves with exactly one result unless the
 * exec pauses, in which case the calls without one are listed in `remaining`.
 */
async function runToolRound(ctx: ExecContext, calls: ToolCall[]): Promise<ToolRound> {
  const round: ToolRound = { results: [], pending: [], remaining: [] }
  const slots: (ToolResultMessage | undefined)[] = new Array(calls.length)
  const replayed: boolean[] = []
  let skipWith: string | undefined
  let paused = false
  let failed: { error: unknown } | undefined

  /** A call's outcome, closed and recorded; the journal append is what the next call waits for. */
  const settle = (index: number, call: ToolCall, outcome: CallOutcome): Promise<void> | undefined => {
    if (outcome.kind === 'pause') {
      paused = true
      round.pending.push(...outcome.requests)
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
      skipWith ??= NOT_RUN.execFailed
      return undefined
    }
    if (outcome.tripped && !round.tripped) {
      const count = ctx.state.streaks.get(outcome.receipt.signature) ?? ctx.env.settings.breakerThreshold
      round.tripped = { name: call.name, count }
      skipWith ??= NOT_RUN.breaker(call.name)
    }
    if (ctx.env.settings.stopAtTools.has(call.name) && !outcome.result.isError && !round.stoppedAt) {
      round.stoppedAt = outcome.result
      skipWith ??= NOT_RUN.stoppedAt(call.name)
    }
    const control = outcome.receipt.control
    if (control?.decision === 'stop' && !round.controlStop) {
      const stopped = { reason: 'control_stop' as const, toolName: call.name, toolCallId: call.id, control }
      round.controlStop = { result: outcome.result, stopped }
      skipWith ??= NOT_RUN.controlStop(call.name)
    }
    // Durable before the next call starts: a crash from here on never runs this body again.
    return outcome.replayed ? undefined : recordTool(ctx.journal, ctx.state.iterationsUsed, call, outcome)
  }

  const runOne = async (index: number, call: ToolCall): Promise<void> => {
    const skip = (status: ReceiptStatus, text: string) => {
      slots[index] = closeCall(ctx, call, notRunAnswer(ctx, call, status, text)).result
    }
    if (ctx.control.controller.signal.aborted) return skip('aborted', NOT_RUN.aborted)
    if (skipWith !== undefined) return skip('skipped', skipWith)
    if (ctx.env.settings.steering === 'interrupt' && ctx.control.steering.pending)
      return skip('skipped', NOT_RUN.steering)
    const overBudget = checkToolCallBudgets(ctx)
    if (overBudget) {
      round.overBudget ??= overBudget
      skipWith ??= NOT_RUN.toolBudget
      return skip('skipped', NOT_RUN.toolBudget)
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
    const saved = settle(index, call, outcome)
    if (saved)
      await saved.catch((error: unknown) => {
        // The journal failed: the call has its result, but the exec cannot go on unrecorded.
        failed ??= { error }
        skipWith ??= NOT_RUN.execFailed
      })
  }

  if (ctx.env.settings.toolExecution === 'parallel' && calls.length > 1) {
    const recordedFrom = ctx.state.receipts.length
    // Identical calls in one message run one after the other, so the duplicate gate sees the first.
    const bySignature = new Map<string, Promise<void>>()
    let next = 0
    const worker = async () => {
      while (next < calls.length) {
        const index = next++
        const call = calls[index] as ToolCall
        const signature = callSignature(call.name, call.arguments)
        const run = (bySignature.get(signature) ?? Promise.resolve()).then(() => runOne(index, call))
        bySignature.set(signature, run)
        await run
      }
    }
    const width = Math.min(ctx.env.settings.maxToolConcurrency, calls.length)
    await Promise.all(Array.from({ length: width }, worker))
    receiptsInCallOrder(ctx.state.receipts, recordedFrom, calls)
  } else {
    for (const [index, call] of calls.entries()) {
      if (paused || failed) break
      await runOne(index, call)
    }
  }

  for (const [index, call] of calls.entries()) {
    const result = slots[index]
    if (!result && failed) continue
    if (result) {
      round.results.push(result)
      append(ctx, result, replayed[index])
    } else {
      round.remaining.push(call.id)
    }
  }
  if (failed) throw failed.error
  if (paused && ctx.env.settings.toolExecution !== 'parallel') await listLaterApprovals(ctx, calls, round)
  return round
}

/**
 * After a sequential pause, the calls behind the first pending one wait too (their order matters).
 * Those that will need a decision are listed now, so a person can decide them all at once.
 */
async function listLaterApprovals(ctx: ExecContext, calls: ToolCall[], round: ToolRound): Promise<void> {
  const first = round.pending[0]
  if (!first) return
  const start = calls.findIndex((c) => c.id === first.toolCallId) + 1
  for (const call of calls.slice(start)) {
    const tool = ctx.tools.get(call.name)
    if (!tool?.needsApproval || ctx.state.decisions.has(call.id)) continue
    const checked = tool.validate ? tool.validate(call.arguments) : { ok: true as const, value: call.arguments }
    if (!checked.ok) continue
    const args = checked.value as Record<string, unknown>
    const key = idempotencyKeyOf(ctx, ctx.state.iterationsUsed, call.id)
    const toolCtx = approvalContext(ctx, call, key)
    if (!(await needsApprovalOf(tool, args, toolCtx))) continue
    // A preview that fails is not listed: the call fails at its own approval gate when it is reached.
    const preview = await previewOf(ctx, tool, args, toolCtx)
    if (!preview.ok) continue
    const request = approvalRequest(ctx, call, args, preview.value)
    markPaused(ctx.journal, ctx.state.iterationsUsed, request)
    round.pending.push(request)
  }
}

/** What the tool round decided: pause, breaker, budget, stop-at-tool, a control stop or abort end the exec; else undefined. */
function afterTools(ctx: ExecContext, round: ToolRound): Ending | undefined {
  if (round.pending.length > 0) {
    // Without an approve handler the stream still announces what waits for a decision, once, from
    // the exec whose calls wait (an ancestor pausing because of it says nothing more).
    const own = round.pending.filter((request) => request.execId === ctx.execId)
    // A child's pause goes up: the call whose body opened it waits too, up to the root.
    const parent = ctx.parent
    if (parent && ctx.parentToolCallId !== undefined) {
      const waiting = parent.control.pausedBelow.get(ctx.parentToolCallId) ?? []
      waiting.push(...round.pending)
      parent.control.pausedBelow.set(ctx.parentToolCallId, waiting)
    }
    const state = pausedState(ctx, round)
    if (own.length > 0) emit(ctx, { type: 'approval_required', approvals: own })
    return { status: 'paused', pending: { state, approvals: round.pending } }
  }
  if (ctx.control.controller.signal.aborted) return aborted(ctx)
  if (round.tripped) {
    const { name, count } = round.tripped
    const why = `tool ${name} failed ${count} consecutive times with identical arguments`
    return { status: 'failed', error: new NestorError('circuit_breaker', why) }
  }
  if (round.overBudget) return { status: 'failed', error: round.overBudget }
  if (round.stoppedAt) return { status: 'completed', text: textOf(round.stoppedAt) }
  const stop = round.controlStop
  if (stop) return { status: 'completed', text: textOf(stop.result), stopped: stop.stopped }
  return undefined
}

/** The RunState of a pause: what a resume (runtime/resume.ts) continues from. */
function pausedState(ctx: ExecContext, round: ToolRound) {
  const { env, tree } = ctx
  return toRunState({
    execId: ctx.execId,
    model: env.model,
    toolNames: [...ctx.tools.keys()],
    ...(env.system !== undefined && { system: env.system }),
    ...(env.parallelToolCalls !== undefined && { parallelToolCalls: env.parallelToolCalls }),
    ...(env.stopAtTools && { stopAtTools: [...env.stopAtTools] }),
    ...(env.owner !== undefined && { owner: env.owner }),
    state: ctx.state,
    pending: round.pending,
    remaining: round.remaining,
    tree: {
      iterations: tree.iterations,
      tokens: tree.tokens,
      costUsd: tree.costUsd,
      toolCalls: tree.toolCalls,
      elapsedMs: Date.now() - tree.startedAt,
    },
    ...(!ctx.parent && ctx.journal && { journal: ctx.journal.tree }),
    ...(env.host.options.stateMaxAgeMs !== undefined && { maxAgeMs: env.host.options.stateMaxAgeMs }),
    ...(env.host.options.stateSecret !== undefined && { secret: env.host.options.stateSecret }),
  })
}

const toolCallsOf = (message: AssistantMessage): ToolCall[] =>
  message.content.filter((c): c is ToolCall => c.type === 'toolCall')

/** Tool calls of a message with ids made unique and non-empty within this exec. */
function uniqueCalls(ctx: ExecContext, message: AssistantMessage): ToolCall[] {
  const calls: ToolCall[] = []
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue
    if (!block.id || ctx.state.toolCallIds.has(block.id)) block.id = generateId('call')
    ctx.state.toolCallIds.add(block.id)
    calls.push(block)
  }
  return calls
}

/** Answers calls without running them, in order (a cut, failed or aborted turn, a repair). */
function answerNotRun(ctx: ExecContext, calls: ToolCall[], status: 'skipped' | 'aborted', text: string) {
  const results: ToolResultMessage[] = []
  for (const call of calls) {
    const { result } = closeCall(ctx, call, notRunAnswer(ctx, call, status, text))
    append(ctx, result)
    results.push(result)
  }
  return results
}

/** After an unexpected throw: every call in the last assistant message gets a result. */
function repairHistory(ctx: ExecContext): void {
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

const aborted = (ctx: ExecContext): Ending => ({
  status: 'aborted',
  error: new NestorError('aborted', `exec ${ctx.execId} was aborted`),
})
