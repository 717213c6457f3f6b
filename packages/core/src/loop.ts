import { checkBudgets, iterationLimit } from './budget.js'
import { NestorError } from './errors.js'
import { emit, type ExecContext } from './exec-context.js'
import { executeToolCalls, type ToolsOutcome } from './execute-tools.js'
import { errorResult, makeReceipt } from './receipt.js'
import { callSignature } from './canonical.js'
import { toRunState } from './run-state.js'
import { streamTurn, type TurnOutcome } from './stream-turn.js'
import { refusalError, type Verdict } from './output.js'
import type {
  AssistantMessage,
  ExecResult,
  Message,
  ModelRequest,
  NestorErrorLike,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from './types.js'
import { addUsage } from './usage.js'
import { untilAbort } from './abort-watch.js'
import { generateId } from './ids.js'
import { asInternal, callHook } from './hook-call.js'
import { refreshLiveTools } from './live-tools.js'
import { journalPending, notePausedChild, recordTurn, replayedTurn, takeMessages } from './durable.js'

const ABORTED = Symbol('aborted')

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
  const input = 'input' in start ? start.input : []
  emit(ctx, { type: 'agent_start', input, toolNames: [...ctx.tools.keys()], iterationBudget: ctx.iterationBudget })
  for (const message of input) append(ctx, message)
  let text = ''
  let output: unknown
  try {
    const loading = journalPending(ctx)
    if (loading) await loading
    let wantsTools = true
    if ('resume' in start) {
      // The paused turn finishes here: its remaining calls run, then its turn_end closes it.
      const outcome = await runCalls(ctx, start.resume.message, start.resume.remaining)
      emit(ctx, {
        type: 'turn_end',
        iteration: ctx.iterationsUsed,
        message: start.resume.message,
        toolResults: outcome.results,
      })
      const stop = afterTools(ctx, outcome, start.resume.message)
      if (stop) return end(ctx, stop)
    }
    outer: while (true) {
      while (wantsTools || ctx.steering.pending) {
        // After an abort no model call starts and no iteration is counted.
        if (ctx.controller.signal.aborted) return end(ctx, aborted(ctx))
        const taken = takeMessages(ctx, ctx.iterationsUsed + 1, () => ctx.steering.drain())
        if (taken.saved) await taken.saved
        const steered = taken.messages
        for (const message of steered) append(ctx, message, taken.replayed)
        const budgetError = checkBudgets(ctx)
        if (budgetError) return end(ctx, { status: 'failed', error: budgetError })
        if (ctx.iterationsUsed >= ctx.iterationBudget) return end(ctx, { status: 'failed', error: iterationLimit(ctx) })

        const iteration = ctx.iterationsUsed + 1
        const recorded = replayedTurn(ctx, iteration)
        const { message, error } = recorded
          ? replayTurn(ctx, iteration, recorded)
          : await liveTurn(ctx, iteration, steered.length > 0)
        if (!message) return end(ctx, aborted(ctx))
        ctx.history.push(message)
        addUsage(ctx.usage, message.usage)
        addUsage(ctx.totalUsage, message.usage)
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
          const verdict: Verdict | undefined = ctx.output
            ? ctx.output.judge(message, text)
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
        const stop = afterTools(ctx, outcome, message)
        if (stop) return end(ctx, stop)
        if (
          ctx.settings.resetToolChoice &&
          ctx.toolChoice !== undefined &&
          ctx.toolChoice !== 'auto' &&
          ctx.toolChoice !== 'none'
        ) {
          ctx.toolChoice = 'auto'
        }
      }
      const followUps = takeMessages(ctx, ctx.iterationsUsed + 1, () => ctx.followUp.drain())
      if (followUps.saved) await followUps.saved
      if (followUps.messages.length === 0) break outer
      for (const message of followUps.messages) append(ctx, message, followUps.replayed)
      wantsTools = true
    }
    return end(ctx, ctx.output ? { status: 'completed', text, output } : { status: 'completed', text })
  } catch (thrown) {
    // A hook or a bug threw: answer whatever is unanswered and fail with the error as data.
    repairHistory(ctx)
    const error = asInternal(thrown)
    return end(ctx, ctx.controller.signal.aborted ? aborted(ctx) : { status: 'failed', error })
  }
}

export type Ending = {
  status: ExecResult['status']
  text?: string
  error?: NestorErrorLike
  pending?: ExecResult['pending']
  output?: unknown
}

/** A turn from the journal: no provider call, no deltas; its message events say `replayed`. */
function replayTurn(ctx: ExecContext, iteration: number, message: AssistantMessage): TurnOutcome {
  ctx.iterationsUsed = iteration
  ctx.tree.iterations++
  emit(ctx, { type: 'turn_start', iteration, iterationBudget: ctx.iterationBudget })
  emit(ctx, { type: 'message_start', message, replayed: true })
  emit(ctx, { type: 'message_end', message, replayed: true })
  return { message }
}

/** A turn from the provider; no message when the exec was aborted before the call started. */
async function liveTurn(ctx: ExecContext, iteration: number, steered: boolean): Promise<Partial<TurnOutcome>> {
  // prepareTurn runs before the turn opens, and an abort does not wait for it: aborted
  // there, the exec ends with no turn events and no empty assistant message.
  const request = await untilAbort(buildRequest(ctx, iteration), ctx.controller.signal, () => ABORTED).catch(
    (thrown: unknown) => {
      if (thrown === ABORTED) return undefined
      throw thrown
    },
  )
  if (!request) return {}
  ctx.iterationsUsed = iteration
  ctx.tree.iterations++
  emit(ctx, { type: 'turn_start', iteration, iterationBudget: ctx.iterationBudget })
  // Steering that arrived while the request was prepared (or right after exec() returned)
  // still goes into this model call ('one' mode takes one message per call).
  if (!steered || ctx.steering.mode === 'all') {
    const taken = takeMessages(ctx, iteration, () => ctx.steering.drain())
    if (taken.saved) await taken.saved
    for (const message of taken.messages) {
      append(ctx, message)
      if (request.messages !== ctx.history) request.messages = [...request.messages, message]
    }
  }
  return streamTurn(ctx, request)
}

async function runCalls(
  ctx: ExecContext,
  message: AssistantMessage,
  ids: string[],
  iteration = ctx.iterationsUsed,
): Promise<ToolsOutcome> {
  const wanted = new Set(ids)
  const calls = message.content.filter((c): c is ToolCall => c.type === 'toolCall' && wanted.has(c.id))
  return executeToolCalls(ctx, calls, iteration)
}

/** What the tool round decided: pause, breaker, stop-at-tool or abort end the exec; else undefined. */
function afterTools(ctx: ExecContext, outcome: ToolsOutcome, message: AssistantMessage): Ending | undefined {
  if (outcome.pending.length > 0) {
    // Without an approve handler the stream still announces what waits for a decision, once, from
    // the exec whose calls wait (an ancestor pausing because of it says nothing more).
    const own = outcome.pending.filter((request) => request.execId === ctx.execId)
    // A child's pause goes up: the call whose body opened it waits too, up to the root.
    if (ctx.parent) notePausedChild(ctx, outcome.pending)
    const state = toRunState(ctx, message, outcome)
    if (own.length > 0) emit(ctx, { type: 'approval_required', approvals: own })
    return { status: 'paused', pending: { state, approvals: outcome.pending } }
  }
  if (ctx.controller.signal.aborted) return aborted(ctx)
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

async function buildRequest(ctx: ExecContext, iteration: number): Promise<ModelRequest> {
  await refreshLiveTools(ctx)
  let model = ctx.model
  let specs = ctx.specs
  let toolChoice = ctx.toolChoice
  let messages = ctx.history
  const prepare = ctx.settings.hooks.prepareTurn
  if (prepare) {
    const changes = await callHook('prepareTurn', () =>
      prepare({ iteration, messages: ctx.history, tools: ctx.specs, toolChoice }),
    )
    if (changes) {
      if (changes.model) model = changes.model
      if (changes.tools) {
        const visible = new Set(changes.tools)
        specs = ctx.specs.filter((s) => visible.has(s.name))
      }
      if (changes.toolChoice) toolChoice = changes.toolChoice
      if (changes.messages) messages = changes.messages
    }
  }
  const request: ModelRequest = { model, messages, tools: specs }
  if (ctx.system !== undefined) request.system = ctx.system
  if (toolChoice !== undefined) request.toolChoice = toolChoice
  if (ctx.parallelToolCalls !== undefined) request.parallelToolCalls = ctx.parallelToolCalls
  if (ctx.settings.providerOptions) request.options = ctx.settings.providerOptions
  if (ctx.settings.maxRetries !== undefined) request.maxRetries = ctx.settings.maxRetries
  if (ctx.settings.streamIdleTimeoutMs !== undefined) request.streamIdleTimeoutMs = ctx.settings.streamIdleTimeoutMs
  if (ctx.output) request.output = ctx.output.spec
  return request
}

/** Tool calls of a message with ids made unique and non-empty within this exec. */
function uniqueCalls(ctx: ExecContext, message: AssistantMessage): ToolCall[] {
  const calls: ToolCall[] = []
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue
    if (!block.id || ctx.toolCallIds.has(block.id)) block.id = generateId('call')
    ctx.toolCallIds.add(block.id)
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
    append(ctx, result)
    results.push(result)
  }
  return results
}

/** After an unexpected throw: every call in the last assistant message gets a result. */
function repairHistory(ctx: ExecContext): void {
  const lastAssistant = ctx.history.findLastIndex((m) => m.role === 'assistant')
  if (lastAssistant < ctx.startIndex) return
  const message = ctx.history[lastAssistant] as AssistantMessage
  const answered = new Set(
    ctx.history.slice(lastAssistant + 1).flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])),
  )
  const open = message.content.filter((c): c is ToolCall => c.type === 'toolCall' && !answered.has(c.id))
  answerAll(ctx, open, 'skipped', 'Tool call not executed: the exec failed')
}

function append(ctx: ExecContext, message: Message | UserMessage, replayed = false): void {
  ctx.history.push(message)
  if (replayed) {
    emit(ctx, { type: 'message_start', message, replayed: true })
    emit(ctx, { type: 'message_end', message, replayed: true })
    return
  }
  emit(ctx, { type: 'message_start', message })
  emit(ctx, { type: 'message_end', message })
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
    messages: ctx.history.slice(ctx.startIndex),
    // Copies: a result never changes after it resolves, whatever still holds the live state.
    history: ctx.history.slice(),
    iterationsUsed: ctx.iterationsUsed,
    iterationBudget: ctx.iterationBudget,
    usage: { ...ctx.usage },
    totalUsage: { ...ctx.totalUsage },
    // Receipts leave redacted: their signature holds the call's arguments.
    receipts: ctx.redact(ctx.receipts.slice()),
  }
  if (ending.error) result.error = ctx.redact(ending.error)
  // The waiting calls' arguments leave redacted like events; only the state (needed to resume) keeps them.
  if (ending.pending) result.pending = { state: ending.pending.state, approvals: ctx.redact(ending.pending.approvals) }
  if ('output' in ending) result.output = ending.output
  return result
}
