import { answerUnrun } from './answer-call.js'
import { NOT_RUN } from './tool-call.js'
import { checkBudgets, iterationLimit } from './budget.js'
import { NestorError } from './errors.js'
import { emit, type ExecContext } from './exec-context.js'
import { executeToolCalls, type ToolsOutcome } from './execute-tools.js'
import { toRunState } from './run-state.js'
import { streamTurn } from './stream-turn.js'
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
  const input = announce(ctx, start)
  for (const message of input) append(ctx, message)
  let text = ''
  let output: unknown
  try {
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
        const steered = ctx.control.steering.drain()
        for (const message of steered) append(ctx, message)
        const budgetError = checkBudgets(ctx)
        if (budgetError) return end(ctx, { status: 'failed', error: budgetError })
        if (ctx.state.iterationsUsed >= ctx.state.iterationBudget)
          return end(ctx, { status: 'failed', error: iterationLimit(ctx) })

        // prepareTurn runs before the turn opens, and an abort does not wait for it: aborted
        // there, the exec ends with no turn events and no empty assistant message.
        const iteration = ctx.state.iterationsUsed + 1
        const request = await untilAbort(
          buildRequest(ctx, iteration),
          ctx.control.controller.signal,
          () => ABORTED,
        ).catch((thrown: unknown) => {
          if (thrown === ABORTED) return undefined
          throw thrown
        })
        if (!request) return end(ctx, aborted(ctx))
        ctx.state.iterationsUsed = iteration
        ctx.tree.iterations++
        emit(ctx, { type: 'turn_start', iteration, iterationBudget: ctx.state.iterationBudget })
        // Steering that arrived while the request was prepared (or right after exec() returned)
        // still goes into this model call ('one' mode takes one message per call).
        if (steered.length === 0 || ctx.control.steering.mode === 'all') {
          for (const message of ctx.control.steering.drain()) {
            append(ctx, message)
            if (request.messages !== ctx.state.history) request.messages = [...request.messages, message]
          }
        }
        const { message, error } = await streamTurn(ctx, request)
        ctx.state.history.push(message)
        addUsage(ctx.state.usage, message.usage)
        addUsage(ctx.state.totalUsage, message.usage)
        ctx.tree.tokens += message.usage.total
        const calls = uniqueCalls(ctx, message)

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
      const followUps = ctx.control.followUp.drain()
      if (followUps.length === 0) break outer
      for (const message of followUps) append(ctx, message)
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
    const state = toRunState(ctx, outcome)
    // Without an approve handler the stream still announces what waits for a decision.
    emit(ctx, { type: 'approval_required', approvals: outcome.pending })
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

async function buildRequest(ctx: ExecContext, iteration: number): Promise<ModelRequest> {
  await refreshLiveTools(ctx)
  let model = ctx.env.model
  let specs = ctx.env.specs
  let toolChoice = ctx.state.toolChoice
  let messages = ctx.state.history
  const prepare = ctx.env.settings.hooks.prepareTurn
  if (prepare) {
    const changes = await callHook('prepareTurn', () =>
      prepare({ iteration, messages: ctx.state.history, tools: ctx.env.specs, toolChoice }),
    )
    if (changes) {
      if (changes.model) model = changes.model
      if (changes.tools) {
        const visible = new Set(changes.tools)
        specs = ctx.env.specs.filter((s) => visible.has(s.name))
      }
      if (changes.toolChoice) toolChoice = changes.toolChoice
      if (changes.messages) messages = changes.messages
    }
  }
  const request: ModelRequest = { model, messages, tools: specs }
  if (ctx.env.system !== undefined) request.system = ctx.env.system
  if (toolChoice !== undefined) request.toolChoice = toolChoice
  if (ctx.env.parallelToolCalls !== undefined) request.parallelToolCalls = ctx.env.parallelToolCalls
  if (ctx.env.settings.providerOptions) request.options = ctx.env.settings.providerOptions
  if (ctx.env.settings.maxRetries !== undefined) request.maxRetries = ctx.env.settings.maxRetries
  if (ctx.env.settings.streamIdleTimeoutMs !== undefined)
    request.streamIdleTimeoutMs = ctx.env.settings.streamIdleTimeoutMs
  if (ctx.env.output) request.output = ctx.env.output.spec
  return request
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

function append(ctx: ExecContext, message: Message | UserMessage): void {
  ctx.state.history.push(message)
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
