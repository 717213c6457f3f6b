import { answerUnrun } from '../calls/answers.js'
import { NOT_RUN } from '../calls/stages.js'
import { checkBudgets, iterationLimit } from '../exec/budget.js'
import { NestorError } from '../contract/errors.js'
import { emit, type ExecContext } from '../exec/context.js'
import { executeToolCalls, type ToolsOutcome } from './tool-round.js'
import { toRunState } from '../state/run-state.js'
import { refusalError, type Verdict } from '../schema/output.js'
import type { AssistantMessage, Message, NestorErrorLike, ToolCall, ToolResultMessage } from '../contract/types.js'
import type { ExecResult } from '../contract/exec-types.js'
import { addUsage } from '../exec/usage.js'
import { generateId } from '../base/ids.js'
import { asInternal } from '../exec/hooks.js'
import { journalPending, notePausedChild, recordTurn, replayedTurn, takeMessages } from '../state/exec-journal.js'
import { append, liveTurn, replayTurn } from './turns.js'

const LENGTH_CUT =
  'Tool call not executed: the response was cut off by the length limit, so its arguments may be incomplete'

/** Where the loop starts: fresh input, or the calls a paused exec left (runtime.resume). */
export type LoopStart = { input: Message[] } | { resume: { message: AssistantMessage; remaining: string[] } }

/**
 * The tool loop. Each round streams one assistant message; tool calls are executed and fed back,
 * text ends the round. Steering is injected before each model call, follow-ups when the loop
 * would end. Every exit path goes through `end`, so agent_end is always the last event and the
 * history invariant (each call answered once) holds.
 */
export async function runLoop(ctx: ExecContext, start: LoopStart): Promise<ExecResult> {
  const input = announce(ctx, start)
  for (const message of input) append(ctx, message)
  let text = ''
  let output: unknown
  try {
    const loading = journalPending(ctx)
    // exec() returns before the first model call is built, so steering sent right after it
    // still joins that call.
    await loading
    let wantsTools = true
    if ('resume' in start) {
      // The paused turn finishes here: its remaining calls run, then its turn_end closes it.
      const outcome = await runCalls(ctx, start.resume.message, start.resume.remaining)
      emit(ctx, {
        type: 'turn_end',
        iteration: ctx.state.iterationsUsed,
        message: start.resume.message,
        toolResults: outcome.results,
      })
      const stop = afterTools(ctx, outcome)
      if (stop) return end(ctx, stop)
    }
    outer: while (true) {
      while (wantsTools || ctx.control.steering.pending) {
        // After an abort no model call starts and no iteration is counted.
        if (ctx.control.controller.signal.aborted) return end(ctx, aborted(ctx))
        const taken = takeMessages(ctx, ctx.state.iterationsUsed + 1, () => ctx.control.steering.drain())
        if (taken.saved) await taken.saved
        const steered = taken.messages
        for (const message of steered) append(ctx, message, taken.replayed)
        const budgetError = checkBudgets(ctx)
        if (budgetError) return end(ctx, { status: 'failed', error: budgetError })
        if (ctx.state.iterationsUsed >= ctx.state.iterationBudget)
          return end(ctx, { status: 'failed', error: iterationLimit(ctx) })

        const iteration = ctx.state.iterationsUsed + 1
        const recorded = replayedTurn(ctx, iteration)
        const { message, error } = recorded
          ? replayTurn(ctx, iteration, recorded)
          : await liveTurn(ctx, iteration, steered.length > 0)
        if (!message) return end(ctx, aborted(ctx))
        ctx.state.history.push(message)
        addUsage(ctx.state.usage, message.usage)
        addUsage(ctx.state.totalUsage, message.usage)
        ctx.tree.tokens += message.usage.total
        const calls = uniqueCalls(ctx, message)
        if (!recorded && message.stopReason !== 'error' && message.stopReason !== 'aborted') {
          // Durable before any tool of this turn runs: a crash from here on never pays for the turn again.
          const saved = recordTurn(ctx, iteration, message)
          if (saved) await saved
        }

        if (message.stopReason === 'error' || message.stopReason === 'aborted') {
          const results = answerAll(
            ctx,
            calls,
            message.stopReason === 'aborted' ? 'aborted' : 'skipped',
            message.stopReason === 'aborted' ? 'aborted' : 'Tool call not executed: the model response failed',
          )
          emit(ctx, { type: 'turn_end', iteration, message, toolResults: results })
          return end(
            ctx,
            message.stopReason === 'aborted'
              ? aborted(ctx)
              : {
                  status: 'failed',
                  error:
                    error ??
                    new NestorError('provider_error', message.errorMessage ?? 'model call failed', {
                      provider: message.provider,
                    }),
                },
          )
        }
        if (calls.length === 0) {
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
          const results = answerAll(ctx, calls, 'skipped', LENGTH_CUT)
          emit(ctx, { type: 'turn_end', iteration, message, toolResults: results })
          continue
        }
        const outcome = await runCalls(
          ctx,
          message,
          calls.map((c) => c.id),
          iteration,
        )
        emit(ctx, { type: 'turn_end', iteration, message, toolResults: outcome.results })
        const stop = afterTools(ctx, outcome)
        if (stop) return end(ctx, stop)
        if (
          ctx.env.settings.resetToolChoice &&
          ctx.state.toolChoice !== undefined &&
          ctx.state.toolChoice !== 'auto' &&
          ctx.state.toolChoice !== 'none'
        ) {
          ctx.state.toolChoice = 'auto'
        }
      }
      const followUps = takeMessages(ctx, ctx.state.iterationsUsed + 1, () => ctx.control.followUp.drain())
      if (followUps.saved) await followUps.saved
      if (followUps.messages.length === 0) break outer
      for (const message of followUps.messages) append(ctx, message, followUps.replayed)
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

export type Ending = {
  status: ExecResult['status']
  text?: string
  error?: NestorErrorLike
  pending?: ExecResult['pending']
  output?: unknown
}

async function runCalls(
  ctx: ExecContext,
  message: AssistantMessage,
  ids: string[],
  iteration = ctx.state.iterationsUsed,
): Promise<ToolsOutcome> {
  const wanted = new Set(ids)
  const calls = message.content.filter((c): c is ToolCall => c.type === 'toolCall' && wanted.has(c.id))
  return executeToolCalls(ctx, calls, iteration)
}

/** What the tool round decided: pause, breaker, stop-at-tool or abort end the exec; else undefined. */
function afterTools(ctx: ExecContext, outcome: ToolsOutcome): Ending | undefined {
  if (outcome.pending.length > 0) {
    // Without an approve handler the stream still announces what waits for a decision, once, from
    // the exec whose calls wait (an ancestor pausing because of it says nothing more).
    const own = outcome.pending.filter((request) => request.execId === ctx.execId)
    // A child's pause goes up: the call whose body opened it waits too, up to the root.
    if (ctx.parent) notePausedChild(ctx, outcome.pending)
    const state = toRunState(ctx, outcome)
    if (own.length > 0) emit(ctx, { type: 'approval_required', approvals: own })
    return { status: 'paused', pending: { state, approvals: outcome.pending } }
  }
  if (ctx.control.controller.signal.aborted) return aborted(ctx)
  if (outcome.tripped) {
    const { name, count } = outcome.tripped
    return {
      status: 'failed',
      error: new NestorError(
        'circuit_breaker',
        `tool ${name} failed ${count} consecutive times with identical arguments`,
      ),
    }
  }
  if (outcome.stoppedAt) return { status: 'completed', text: textOf(outcome.stoppedAt) }
  return undefined
}

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

/** Gives every call an error result without running it (length cut, failed or aborted stream). */
function answerAll(
  ctx: ExecContext,
  calls: ToolCall[],
  status: 'skipped' | 'aborted',
  text: string,
): ToolResultMessage[] {
  const results: ToolResultMessage[] = []
  for (const call of calls) {
    const { result } = answerUnrun(ctx, call, status, text)
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
  const open = message.content.filter((c): c is ToolCall => c.type === 'toolCall' && !answered.has(c.id))
  answerAll(ctx, open, 'skipped', NOT_RUN)
}

const aborted = (ctx: ExecContext): Ending => ({
  status: 'aborted',
  error: new NestorError('aborted', `exec ${ctx.execId} was aborted`),
})

function textOf(message: AssistantMessage | ToolResultMessage): string {
  let text = ''
  for (const block of message.content) if (block.type === 'text') text += block.text
  return text
}

/** Emits agent_start, the first event of every exec; returns the input messages. */
export function announce(ctx: ExecContext, start: LoopStart): Message[] {
  const input = 'input' in start ? start.input : []
  emit(ctx, {
    type: 'agent_start',
    input,
    toolNames: [...ctx.env.tools.keys()],
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

/** The ExecResult of an exec in its current state; budget fields are always set. */
export function resultOf(ctx: ExecContext, ending: Ending): ExecResult {
  const result: ExecResult = {
    execId: ctx.execId,
    status: ending.status,
    text: ending.text ?? '',
    messages: ctx.state.history.slice(ctx.state.startIndex),
    // Copies: a result never changes after it resolves, whatever still holds the live state.
    history: ctx.state.history.slice(),
    iterationsUsed: ctx.state.iterationsUsed,
    iterationBudget: ctx.state.iterationBudget,
    usage: { ...ctx.state.usage },
    totalUsage: { ...ctx.state.totalUsage },
    // Receipts leave redacted: their signature holds the call's arguments.
    receipts: ctx.env.redact(ctx.state.receipts.slice()),
  }
  if (ending.error) result.error = ctx.env.redact(ending.error)
  // The waiting calls' arguments leave redacted like events; only the state (needed to resume) keeps them.
  if (ending.pending)
    result.pending = { state: ending.pending.state, approvals: ctx.env.redact(ending.pending.approvals) }
  if ('output' in ending) result.output = ending.output
  return result
}
