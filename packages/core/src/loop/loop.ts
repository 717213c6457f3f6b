import { ABORTED, raceAbort } from '../base/abort-watch.js'
import { NestorError } from '../contract/errors.js'
import type { EventPayload } from '../contract/event-types.js'
import type { ExecResult } from '../contract/exec-types.js'
import type { AssistantMessage, Message, NestorErrorLike, ToolCall, ToolResultMessage } from '../contract/types.js'
import { statsFromReceipts } from '../calls/exec-stats.js'
import { NOT_RUN } from '../calls/answers.js'
import { answerNotRun, repairHistory, runToolRound, toolCallsOf, type ToolRound } from '../calls/round.js'
import { turnBudgetError } from '../exec/budget.js'
import { append, emit, waitingOf, type ExecContext } from '../exec/context.js'
import { asInternal } from '../exec/hooks.js'
import { chooseHandoff, passHandoff } from '../handoffs/pass.js'
import { refusalError, type Verdict } from '../schema/output.js'
import { saveTurn } from '../sessions/exec-session.js'
import { pendingInput } from '../state/answer-journal.js'
import { toRunState } from '../state/run-state.js'
import { takeQueued, takeTurn, turnsReady } from './turns.js'
import { inputChecked, startInputGuardrails, tripOf } from '../guardrails/input.js'
import { checkOutput } from '../guardrails/output.js'

/**
 * The tool loop. Each round takes a model turn (from the journal when it was recorded, else from
 * the provider); tool calls are run through their stages and fed back, text ends the round.
 * Steering is injected before each model call, follow-ups when the loop would end. Every exit goes
 * through `end`, so agent_end is always the last event and the history invariant (each call
 * answered once) holds. The journal is a seam, not a thread: the loop meets it only through its
 * turn source (`turns.ts`: turns and queued messages, replayed or recorded) and the tool round
 * (`calls/`: a call replayed by its first stage, or recorded once it settled); it names it once,
 * to hand a root's journal to the RunState of a pause (`pausedState`).
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
    await turnsReady(ctx)
    if ('input' in start) {
      // Guardrails hook: blocking input checks end the exec here; parallel ones start beside the first call.
      const starting = startInputGuardrails(ctx, start.input)
      const trip = starting instanceof Promise ? await starting : starting
      if (trip) return end(ctx, { status: 'failed', error: trip })
    }
    if ('resume' in start) {
      // The paused turn finishes here: its remaining calls run, then its turn_end closes it.
      const { message, remaining } = start.resume
      const wanted = new Set(remaining)
      const all = toolCallsOf(message)
      chooseHandoff(ctx, all)
      const round = await runToolRound(
        ctx,
        all.filter((c) => wanted.has(c.id)),
      )
      await endTurn(ctx, { type: 'turn_end', iteration: ctx.state.iterationsUsed, message, toolResults: round.results })
      const stop = await judgedStop(ctx, afterTools(ctx, round) ?? (await handedOver(ctx, all)))
      if (stop) return end(ctx, stop)
    }
    let wantsTools = true
    outer: while (true) {
      while (wantsTools || ctx.control.steering.pending) {
        // After an abort no model call starts and no iteration is counted.
        if (ctx.control.controller.signal.aborted) return end(ctx, aborted(ctx))
        const iteration = ctx.state.iterationsUsed + 1
        const queued = takeQueued(ctx, iteration, 'steering')
        const steered = (queued instanceof Promise ? await queued : queued) > 0
        const budgetError = turnBudgetError(ctx)
        if (budgetError) return end(ctx, { status: 'failed', error: budgetError })
        const turn = await takeTurn(ctx, iteration, steered)
        if (!turn) return end(ctx, aborted(ctx))
        if ('refused' in turn) return end(ctx, { status: 'failed', error: turn.refused })
        const { message, error, calls } = turn
        // Guardrails hook: no tool runs and nothing completes before the input guardrails passed.
        const checking = inputChecked(ctx)
        const inputTrip = checking instanceof Promise ? await checking : checking
        if (inputTrip) {
          const results = answerNotRun(ctx, calls, 'skipped', NOT_RUN.guardrailTripped)
          await endTurn(ctx, { type: 'turn_end', iteration, message, toolResults: results })
          return end(ctx, { status: 'failed', error: inputTrip })
        }
        const failed = message.stopReason === 'error' || message.stopReason === 'aborted'

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
          // Guardrails hook: the output guardrails trip, or send feedback within the iteration budget.
          const judging = checkOutput(ctx, text, output)
          const judged = judging instanceof Promise ? await judging : judging
          if (judged && 'trip' in judged) return end(ctx, { status: 'failed', text, error: judged.trip })
          if (judged) {
            append(ctx, judged.feedback)
            continue
          }
          wantsTools = false
          continue
        }
        if (message.stopReason === 'length') {
          const results = answerNotRun(ctx, calls, 'skipped', NOT_RUN.lengthCut)
          await endTurn(ctx, { type: 'turn_end', iteration, message, toolResults: results })
          continue
        }
        // The model called tools.
        chooseHandoff(ctx, calls)
        const round = await runToolRound(ctx, calls)
        await endTurn(ctx, { type: 'turn_end', iteration, message, toolResults: round.results })
        const stop = await judgedStop(ctx, afterTools(ctx, round) ?? (await handedOver(ctx, calls)))
        if (stop) return end(ctx, stop)
        const choice = ctx.state.toolChoice
        if (ctx.env.settings.resetToolChoice && choice !== undefined && choice !== 'auto' && choice !== 'none')
          ctx.state.toolChoice = 'auto'
      }
      const followUps = takeQueued(ctx, ctx.state.iterationsUsed + 1, 'followUp')
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

/** A turn ends: its turn_end, then its one session write (when the exec has a session). */
async function endTurn(ctx: ExecContext, event: Extract<EventPayload, { type: 'turn_end' }>): Promise<void> {
  emit(ctx, event)
  await saveTurn(ctx)
}

/** What the tool round decided: pause, breaker, budget, stop-at-tool, a control stop or abort end the exec; else undefined. */
function afterTools(ctx: ExecContext, round: ToolRound): Ending | undefined {
  if (round.pending.length > 0 || round.inputs.length > 0) {
    // Without a handler the stream still announces what waits for a decision or an answer, once,
    // from the exec whose calls wait (an ancestor pausing because of it says nothing more).
    const own = round.pending.filter((request) => request.execId === ctx.execId)
    const inputs = round.inputs.map(pendingInput)
    const asked = inputs.filter((input) => input.path[input.path.length - 1] === ctx.execId)
    // A child's pause goes up: the call whose body opened it waits too, up to the root.
    const parent = ctx.parent
    if (parent && ctx.parentToolCallId !== undefined) {
      const waiting = waitingOf(parent, ctx.parentToolCallId)
      waiting.approvals.push(...round.pending)
      waiting.inputs.push(...round.inputs)
    }
    const state = pausedState(ctx, round)
    if (own.length > 0) emit(ctx, { type: 'approval_required', approvals: own })
    if (asked.length > 0) emit(ctx, { type: 'input_required', inputs: asked })
    return { status: 'paused', pending: { state, approvals: round.pending, inputs } }
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

/** After a round that goes on: a handoff the turn took makes the exec its target (handoffs/). */
/**
 * Guardrails hook: a stop-at-tool or control stop completes the exec with the tool's result as its
 * answer, so the output guardrails check that answer too. A trip fails the exec; feedback goes to
 * the model and the loop goes on (undefined), within the iteration budget.
 */
async function judgedStop(ctx: ExecContext, stop: Ending | undefined): Promise<Ending | undefined> {
  if (stop?.status !== 'completed') return stop
  const text = stop.text ?? ''
  const judging = checkOutput(ctx, text, undefined, false)
  const judged = judging instanceof Promise ? await judging : judging
  if (!judged) return stop
  if ('trip' in judged) return { status: 'failed', text, error: judged.trip }
  append(ctx, judged.feedback)
  return undefined
}

async function handedOver(ctx: ExecContext, calls: ToolCall[]): Promise<Ending | undefined> {
  const error = await passHandoff(ctx, calls)
  return error && { status: 'failed', error }
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
    inputs: round.inputs,
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

const aborted = (ctx: ExecContext): Ending => ({
  status: 'aborted',
  error: new NestorError('aborted', `exec ${ctx.execId} was aborted`),
})

// ─── How an exec starts and ends ─────────────────────────────────────────────

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
  // Guardrails hook: an abort an input guardrail's trip caused ends the exec failed, saying why.
  const trip = ending.status === 'aborted' ? tripOf(ctx) : undefined
  if (trip) ending = { ...ending, status: 'failed', error: trip }
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
    result.pending = {
      state: ending.pending.state,
      approvals: ctx.env.redact(ending.pending.approvals),
      inputs: ctx.env.redact(ending.pending.inputs),
    }
  if ('output' in ending) result.output = ending.output
  if (ending.stopped) result.stopped = ctx.env.redact(ending.stopped)
  if (ctx.state.agent !== undefined) result.agent = ctx.state.agent
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
