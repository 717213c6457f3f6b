import { ABORTED, raceAbort } from '../base/abort-watch.js'
import { generateId } from '../base/ids.js'
import { NestorError, messageOf } from '../contract/errors.js'
import type { AskOptions, InputRequest, OutputSchema, PendingInput, ToolCall, ToolContext } from '../contract/types.js'
import { emit, waitingOf, type ExecContext } from '../exec/context.js'
import { compileSchema, type CompiledSchema, type SchemaInput } from '../schema/schema.js'
import { answerKey, inputIdOf, priorAnswer, recordAnswer, type WaitingInput } from '../state/answer-journal.js'

/**
 * The `ctx.ask` of one run of a call's body (docs/asking.md). An answer a resume gave (or the
 * journal recorded) comes back at once; else the nearest `ask` handler answers; else the question
 * waits with the call, the whole tree pauses, and this run of the body ends with a rejection (its
 * outcome is dropped: the body runs again from its start once the answer is given).
 */
export function askOf(ctx: ExecContext, call: ToolCall, signal: () => AbortSignal): ToolContext['ask'] {
  const iteration = ctx.state.iterationsUsed
  let unnamed = 0
  const ask = async (question: unknown, schema: unknown, options: AskOptions = {}): Promise<unknown> => {
    const name = questionName(options, () => String(unnamed++))
    if (typeof question !== 'string' || question.trim() === '')
      throw new NestorError('invalid_options', 'ctx.ask needs a question: a non-empty string')
    const compiled = compileSchema(schema as SchemaInput)
    const journal = ctx.journal
    const key = journal && answerKey(journal, iteration, call.id, name)
    const input: PendingInput = {
      id: journal && key ? inputIdOf(journal, key) : generateId('input'),
      toolCallId: call.id,
      path: ctx.path,
      question,
      schema: compiled.json,
    }
    const prior = journal && key ? priorAnswer(journal, key) : undefined
    if (prior) return settle(ctx, input, compiled, prior.value, key)
    const handler = ctx.env.ask
    if (handler) return settle(ctx, input, compiled, await handled(ctx, input, handler, signal(), options), key)
    if (!key)
      throw new NestorError(
        'input_unavailable',
        `no one can answer "${question}": no ask handler, and a batch cannot pause`,
      )
    waitingOf(ctx, call.id).inputs.push({ ...input, key } satisfies WaitingInput)
    throw new NestorError(
      'input_unavailable',
      `the run pauses for an answer to "${question}" (input ${input.id}); the body runs again once it is answered`,
    )
  }
  return ask as <S extends OutputSchema>(q: string, s: S, o?: AskOptions) => Promise<never>
}

function questionName(options: AskOptions, next: () => string): string {
  if (typeof options !== 'object' || options === null)
    throw new NestorError('invalid_options', 'ctx.ask options must be an object: { key?, signal? }')
  const { key } = options
  if (key === undefined) return next()
  if (typeof key !== 'string' || key === '')
    throw new NestorError('invalid_options', 'ctx.ask option key must be a non-empty string')
  // A named question is outside the count, so the unnamed ones keep their places.
  return `=${key}`
}

/** Asks the handler, emitting `input_required` first; an abort (the call's, or `options.signal`) ends the wait. */
async function handled(
  ctx: ExecContext,
  input: PendingInput,
  handler: NonNullable<ExecContext['env']['ask']>,
  callSignal: AbortSignal,
  options: AskOptions,
): Promise<unknown> {
  emit(ctx, { type: 'input_required', inputs: [input] })
  const signal = options.signal ? AbortSignal.any([callSignal, options.signal]) : callSignal
  const request: InputRequest = { ...input, execId: ctx.execId, depth: ctx.depth, signal }
  let answer: unknown
  try {
    answer = await raceAbort(
      Promise.resolve().then(() => handler(request)),
      signal,
    )
  } catch (error) {
    // The handler's own typed refusal (a declined elicitation, input_unavailable) reaches the body as is.
    if (NestorError.isInstance(error)) throw error
    throw new NestorError('hook_error', `the ask handler failed: ${ctx.env.redact(messageOf(error))}`, {
      cause: error,
    })
  }
  if (answer === ABORTED) throw new NestorError('aborted', `aborted while waiting for an answer to input ${input.id}`)
  return answer
}

/** Checks an answer against the question's schema; a good one is recorded before the body goes on. */
async function settle(
  ctx: ExecContext,
  input: PendingInput,
  compiled: CompiledSchema,
  answer: unknown,
  key: string | undefined,
): Promise<unknown> {
  const checked = compiled.validate(answer)
  if (!checked.ok)
    throw new NestorError(
      'invalid_options',
      `the answer to input ${input.id} does not match its schema:\n- ${checked.issues.join('\n- ')}`,
      { issues: checked.issues },
    )
  const saved = ctx.journal && key !== undefined ? recordAnswer(ctx.journal, key, answer) : undefined
  if (saved) await saved
  return checked.value
}
