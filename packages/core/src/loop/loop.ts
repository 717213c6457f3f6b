import { NestorError } from '../contract/errors.js'
import type { ExecResult } from '../contract/exec-types.js'
import type { AssistantMessage, ToolCall } from '../contract/types.js'
import type { ToolResultMessage } from '../contract/types.js'
import { closeCall, NOT_RUN, notRunAnswer } from '../calls/answers.js'
import { runToolRound, type ToolRound } from '../calls/round.js'
import { checkBudgets, iterationLimit } from '../exec/budget.js'
import { append, emit, type ExecContext } from '../exec/context.js'
import { asInternal } from '../exec/hooks.js'
import { refusalError, type Verdict } from '../schema/output.js'
import { toRunState } from '../state/run-state.js'
import { announce, end, textOf, type Ending, type LoopStart } from './ending.js'
import { takeQueued, takeTurn } from './turns.js'

/**
 * The tool loop. Each round takes a model turn (from the journal when it was recorded, else from
 * the provider); tool calls are run through their stages and fed back, text ends the round.
 * Steering is injected before each model call, follow-ups when the loop would end. Every exit goes
 * through `end`, so agent_end is always the last event and the history invariant (each call
 * answered once) holds. The journal is a seam, not a thread: past waiting for it to be ready, the
 * loop meets it only through its turn source (`turns.ts`: turns and queued messages, replayed or
 * recorded) and the tool round (`calls/`: a call replayed by its first stage, or recorded once settled).
 */
export async function runLoop(ctx: ExecContext, start: LoopStart): Promise<ExecResult> {
  if ('recorded' in start) {
    // A fork without its input reads it first; one it cannot read fails the fork with why.
    const input = await start.recorded.catch((error: unknown) => asInternal(error))
    if (!Array.isArray(input)) {
      announce(ctx, { input: [] })
      return end(ctx, { status: 'failed', error: input })
    }
    start = { input }
  }
  for (const message of announce(ctx, start)) append(ctx, message)
  let text = ''
  let output: unknown
  try {
    // exec() returns before the first model call is built, so steering sent right after it
    // still joins that call.
    await ctx.journal?.tree.ready
    if ('resume' in start) {
      // The paused turn finishes here: its remaining calls run, then its turn_end closes it.
      const { message, remaining } = start.resume
      const wanted = new Set(remaining)
      const round = await runToolRound(
        ctx,
        toolCallsOf(message).filter((c) => wanted.has(c.id)),
      )
      emit(ctx, { type: 'turn_end', iteration: ctx.state.iterationsUsed, message, toolResults: round.results })
      const stop = afterTools(ctx, round)
      if (stop) return end(ctx, stop)
    }
    let wantsTools = true
    outer: while (true) {
      while (wantsTools || ctx.control.steering.pending) {
        // After an abort no model call starts and no iteration is counted.
        if (ctx.control.controller.signal.aborted) return end(ctx, aborted(ctx))
        const iteration = ctx.state.iterationsUsed + 1
        const queued = takeQueued(ctx, iteration, ctx.control.steering)
        const steered = (queued instanceof Promise ? await queued : queued) > 0
        const budgetError = checkBudgets(ctx)
        if (budgetError) return end(ctx, { status: 'failed', error: budgetError })
        if (ctx.state.iterationsUsed >= ctx.state.iterationBudget)
          return end(ctx, { status: 'failed', error: iterationLimit(ctx) })
        const turn = await takeTurn(ctx, iteration, steered)
        if (!turn) return end(ctx, aborted(ctx))
        const { message, error, calls } = turn
        const failed = message.stopReason === 'error' || message.stopReason === 'aborted'

        if (failed) {
          const abortedTurn = message.stopReason === 'aborted'
          const results = answerNotRun(
            ctx,
            calls,
            abortedTurn ? 'aborted' : 'skipped',
            abortedTurn ? NOT_RUN.aborted : NOT_RUN.modelFailed,
          )
          emit(ctx, { type: 'turn_end', iteration, message, toolResults: results })
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
          emit(ctx, { type: 'turn_end', iteration, message, toolResults: [] })
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
          emit(ctx, { type: 'turn_end', iteration, message, toolResults: results })
          continue
        }
        // The model called tools.
        const round = await runToolRound(ctx, calls)
        emit(ctx, { type: 'turn_end', iteration, message, toolResults: round.results })
        const stop = afterTools(ctx, round)
        if (stop) return end(ctx, stop)
        const choice = ctx.state.toolChoice
        if (ctx.env.settings.resetToolChoice && choice !== undefined && choice !== 'auto' && choice !== 'none')
          ctx.state.toolChoice = 'auto'
      }
      const followUps = takeQueued(ctx, ctx.state.iterationsUsed + 1, ctx.control.followUp)
      if ((followUps instanceof Promise ? await followUps : followUps) === 0) break outer
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
    state: ctx.state,
    pending: round.pending,
    remaining: round.remaining,
    tree: {
      iterations: tree.iterations,
      tokens: tree.tokens,
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
