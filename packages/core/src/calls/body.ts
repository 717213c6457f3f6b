import { NestorError, messageOf } from '../contract/errors.js'
import { emit, type ExecContext } from '../exec/context.js'
import { LazyAbort, onAbort } from '../base/abort-watch.js'
import { inFrameNow, runInFrame } from '../exec/frame.js'
import { sleep } from '../base/sleep.js'
import { toToolOutput } from '../tools/tool.js'
import { askOf } from './ask.js'
import type { Tool, ToolCall, ToolContext, ToolOutput } from '../contract/types.js'
import type { ExecInput, ExecOptions } from '../contract/exec-types.js'

export type RunOutcome =
  | {
      status: 'ok'
      output: ToolOutput
      /** What the output gate checks: the value `execute` returned (the `details` of a `{ content, details }` envelope). */
      value: unknown
      attempts: number
    }
  | { status: 'tool_error' | 'timeout' | 'aborted'; message: string; attempts: number }

/**
 * Executes a tool body with its timeout and bounded retries. The body runs in its own Frame so a
 * nested exec() finds its parent. A body that ignores its signal is not awaited past an abort or a
 * timeout: the call gets its result and the body's late outcome is dropped (never unhandled).
 */
export async function runTool(
  ctx: ExecContext,
  tool: Tool,
  args: Record<string, unknown>,
  call: ToolCall,
  idempotencyKey: () => string,
): Promise<RunOutcome> {
  // Waits for a slot of the tool's runtime-wide `concurrency`; an abort while waiting ends the call.
  const release = await ctx.env.slots.acquire(tool.spec.name, tool.concurrency, ctx.control.controller.signal)
  if (!release) return { status: 'aborted', message: 'aborted', attempts: 0 }
  try {
    return await attempts(ctx, tool, args, call, idempotencyKey)
  } finally {
    release()
  }
}

async function attempts(
  ctx: ExecContext,
  tool: Tool,
  args: Record<string, unknown>,
  call: ToolCall,
  idempotencyKey: () => string,
): Promise<RunOutcome> {
  const attemptsAllowed = 1 + Math.max(0, tool.retries ?? 0)
  const timeoutMs = tool.timeoutMs ?? ctx.env.settings.toolTimeoutMs
  let last: RunOutcome = { status: 'tool_error', message: 'not run', attempts: 0 }
  for (let attempt = 1; attempt <= attemptsAllowed; attempt++) {
    if (ctx.control.controller.signal.aborted) return { status: 'aborted', message: 'aborted', attempts: attempt - 1 }
    last = await attemptOnce(ctx, tool, args, call, timeoutMs, attempt, idempotencyKey)
    if (last.status === 'ok' || last.status === 'aborted') return last
    if (
      attempt < attemptsAllowed &&
      !(await sleep(Math.min(2000, 50 * 2 ** (attempt - 1)), ctx.control.controller.signal))
    ) {
      return { status: 'aborted', message: 'aborted', attempts: attempt }
    }
  }
  return last
}

function attemptOnce(
  ctx: ExecContext,
  tool: Tool,
  args: Record<string, unknown>,
  call: ToolCall,
  timeoutMs: number | undefined,
  attempt: number,
  idempotencyKey: () => string,
): Promise<RunOutcome> {
  const controller = new LazyAbort()
  const parentSignal = ctx.control.controller.signal
  // Once this attempt has its outcome, a late ctx.update() from the body is dropped: the call's
  // tool_end (and maybe the exec's agent_end) may already be out.
  let finished = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let unwatch = () => {}
  return new Promise<RunOutcome>((resolve) => {
    // The first outcome wins: the body's, the exec's abort or the timeout.
    const finishAttempt = (outcome: RunOutcome) => {
      if (finished) return
      finished = true
      if (timer) clearTimeout(timer)
      unwatch()
      resolve(outcome)
    }
    unwatch = onAbort(parentSignal, () => {
      controller.abort(parentSignal.reason)
      finishAttempt({ status: 'aborted', message: 'aborted', attempts: attempt })
    })
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        const message = `tool ${tool.spec.name} timed out after ${timeoutMs} ms`
        controller.abort(new NestorError('aborted', message))
        finishAttempt({ status: 'timeout', message, attempts: attempt })
      }, timeoutMs)
    }
    const toolCtx: ToolContext = {
      get signal() {
        return controller.signal
      },
      toolCallId: call.id,
      get idempotencyKey() {
        return idempotencyKey()
      },
      execId: ctx.execId,
      depth: ctx.depth,
      update: (partial) => {
        if (!finished) emitUpdate(ctx, call.id, partial)
      },
      log: (level, message, data) => {
        if (!finished)
          emit(ctx, { type: 'tool_log', toolCallId: call.id, level, message, ...(data !== undefined && { data }) })
      },
      // The host of every exec is a Runtime: its exec returns an ExecRun (as the ambient exec()).
      exec: ((input: ExecInput, options?: ExecOptions) =>
        inFrameNow(frame, () => ctx.env.host.exec(input, options))) as ToolContext['exec'],
      ask: askOf(ctx, call, () => controller.signal),
    }
    const frame = {
      ctx,
      runningTool: tool.spec.name,
      toolCallId: call.id,
      get signal() {
        return controller.signal
      },
    }
    runInFrame(frame, () => tool.execute(args, toolCtx))
      // A body that fails because its signal aborted comes too late: the abort or the timeout
      // that aborted it already finished this attempt. A throw inside `outputOf` (never expected)
      // still ends this call, not the exec.
      .then((value) => finishAttempt(outputOf(tool, value, attempt)))
      .catch((error: unknown) =>
        finishAttempt({ status: 'tool_error', message: ctx.env.redact(messageOf(error)), attempts: attempt }),
      )
  })
}

/**
 * What a body returned, as the call's output. The history, events, receipts and RunStates are JSON,
 * so an output JSON cannot hold (a cycle, a BigInt, a getter that throws) is this call's error
 * result, like a throw from the body: the body ran (attempts counts it) and the loop goes on.
 */
function outputOf(tool: Tool, value: unknown, attempt: number): RunOutcome {
  try {
    const output = toToolOutput(value)
    if (output.details !== undefined) JSON.stringify(output.details)
    return { status: 'ok', output, value: gateValue(value), attempts: attempt }
  } catch (error) {
    return {
      status: 'tool_error',
      message: `tool ${tool.spec.name} returned a value that cannot be serialised as JSON: ${messageOf(error)}`,
      attempts: attempt,
    }
  }
}

/**
 * The output gate checks what the tool returned, not the text the model will see: a plain value as
 * is, a `{ content, details }` envelope by its `details` (the content is already model-ready text).
 */
function gateValue(value: unknown): unknown {
  if (value && typeof value === 'object' && Array.isArray((value as ToolOutput).content))
    return (value as ToolOutput).details
  return value
}

function emitUpdate(ctx: ExecContext, toolCallId: string, update: unknown): void {
  emit(ctx, { type: 'tool_update', toolCallId, update })
}
