import { NestorError, invalidOption } from '../contract/errors.js'
import { option, parseOptions, strictOptions, type SameKeys } from './option-schema.js'
import { stateSchemas } from '../contract/run-state-schema.js'
import { lazy, zod } from '../base/zod-lazy.js'
import { choiceNames } from '../schema/choices.js'
import { checkPrices } from './prices.js'
import type { ContextOptions, ExecOptions, RuntimeOptions } from '../contract/exec-types.js'
import type { HistoryMessage } from '../contract/types.js'
import { completeMessage } from './supplied-history.js'

const MAX_ITERATIONS = 10_000

const iterations = () =>
  option.custom<number>(
    `an integer in 1..${MAX_ITERATIONS}, or Infinity`,
    (v) => v === Infinity || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_ITERATIONS),
  )

const provider = () =>
  option.custom<RuntimeOptions['provider']>(
    'a Provider with a stream() method',
    (v) => typeof v === 'object' && v !== null && typeof (v as { stream?: unknown }).stream === 'function',
  )
const toolNames = () => option.stringList('an array of tool names or globs')
const toolChoice = () =>
  option.custom<ExecOptions['toolChoice']>(
    "'auto', 'required', 'none' or { type: 'function', name }",
    (c) =>
      c === 'auto' ||
      c === 'required' ||
      c === 'none' ||
      (typeof c === 'object' &&
        c !== null &&
        (c as { type?: unknown }).type === 'function' &&
        typeof (c as { name?: unknown }).name === 'string'),
  )
// Checked as a whole in checkContext: maxTokens must leave room above reserveTokens.
const contextOptions = () =>
  option.object({
    maxTokens: option.positiveInt().optional(),
    reserveTokens: option.nonNegativeInt().optional(),
    strategy: option
      .custom<NonNullable<ContextOptions['strategy']>>(
        "'summarize', 'truncate' or a function (messages, info) => messages",
        (v) => v === 'summarize' || v === 'truncate' || typeof v === 'function',
      )
      .optional(),
  })
const usd = () =>
  option.custom<number>(
    'a finite number of US dollars > 0',
    (v) => typeof v === 'number' && Number.isFinite(v) && v > 0,
  )
const modelName = () => option.nonEmptyString('a non-empty model name')

// Shapes are functions and schemas lazy: nothing is built (and zod is not loaded) at import.
const hooksShape = () => ({
  prepareTurn: option.function().optional(),
  beforeToolCall: option.function().optional(),
  afterToolCall: option.function().optional(),
})

const runtimeShape = () => ({
  provider: provider(),
  model: modelName(),
  system: option.string().optional(),
  registry: option
    .custom<RuntimeOptions['registry']>(
      'a ToolRegistry',
      (v) => typeof v === 'object' && v !== null && typeof (v as { list?: unknown }).list === 'function',
    )
    .optional(),
  maxIterations: iterations().optional(),
  maxDepth: option.positiveInt().optional(),
  maxTotalIterations: option.positiveInt().optional(),
  maxToolCalls: option.nonNegativeInt().optional(),
  maxTotalToolCalls: option.nonNegativeInt().optional(),
  toolExecution: option.oneOf(['sequential', 'parallel']).optional(),
  duplicateCalls: option.oneOf(['reject', 'allow']).optional(),
  breakerThreshold: option.positiveIntOrInfinity().optional(),
  strictArguments: option.boolean().optional(),
  toolTimeoutMs: option.nonNegative().optional(),
  maxRetries: option.nonNegativeInt().optional(),
  secrets: option.stringList().optional(),
  queueMode: option.oneOf(['all', 'one']).optional(),
  steering: option.oneOf(['interrupt', 'after-turn']).optional(),
  maxToolConcurrency: option.positiveIntOrInfinity().optional(),
  maxTotalTokens: option.positiveInt().optional(),
  maxCostUsd: usd().optional(),
  maxTotalCostUsd: usd().optional(),
  // Each entry checked in validateRuntimeOptions (checkPrices names the bad one).
  prices: option.plainObject().optional(),
  deadlineMs: option.nonNegative().optional(),
  streamIdleTimeoutMs: option.nonNegative().optional(),
  resetToolChoice: option.boolean().optional(),
  stopAtTools: toolNames().optional(),
  approve: option.function().optional(),
  ask: option.function().optional(),
  hooks: option.object(hooksShape()).optional(),
  stateSecret: option.nonEmptyString().optional(),
  claimState: option.function().optional(),
  stateMaxAgeMs: option.nonNegative().optional(),
  providerOptions: option.plainObject().optional(),
  context: contextOptions().optional(),
  think: option.boolean().optional(),
  retention: option
    .object({
      replayWindow: option.nonNegativeInt().optional(),
      keepFinishedMs: option.nonNegative().optional(),
      maxFinishedRuns: option.nonNegativeInt().optional(),
      maxLiveRuns: option.nonNegativeInt().optional(),
    })
    .optional(),
  sessions: option
    .custom<NonNullable<RuntimeOptions['sessions']>>(
      'a SessionStore (memorySessions(), sqliteSessions(), postgresSessions())',
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        ['acquire', 'release', 'load', 'append', 'messages'].every(
          (k) => typeof (v as Record<string, unknown>)[k] === 'function',
        ),
    )
    .optional(),
  // Checked whole by the runtime (guardrails/define.ts): kinds, definitions, unique names.
  guardrails: option.plainObject().optional(),
})
const runtimeSchema = strictOptions(runtimeShape)

const execShape = () => ({
  tools: option.custom<unknown[]>('an array of tools', Array.isArray).optional(),
  toolset: option.oneOf(['all', 'none']).optional(),
  toolsAllow: toolNames().optional(),
  toolsDeny: toolNames().optional(),
  stopAtTools: toolNames().optional(),
  toolChoice: toolChoice().optional(),
  parallelToolCalls: option.boolean().optional(),
  maxIterations: iterations().optional(),
  maxToolCalls: option.nonNegativeInt().optional(),
  maxCostUsd: usd().optional(),
  model: modelName().optional(),
  provider: provider().optional(),
  system: option.string().optional(),
  // Checked per message in validateExecOptions (a message object is checked once, not every exec).
  history: option.custom<ExecOptions['history']>('an array of messages', Array.isArray).optional(),
  signal: option.custom<AbortSignal>('an AbortSignal', (v) => v instanceof AbortSignal).optional(),
  ask: option.function().optional(),
  providerOptions: option.plainObject().optional(),
  think: option.boolean().optional(),
  output: option
    .custom<ExecOptions['output']>('a zod schema or a JSON Schema object', (v) => typeof v === 'object' && v !== null)
    .optional(),
  // Names checked in validateExecOptions (empty, duplicate or non-string names each say so).
  choices: option
    .custom<NonNullable<ExecOptions['choices']>>(
      'an array of names or a record of name → description',
      (v) => typeof v === 'object' && v !== null,
    )
    .optional(),
  outputRetries: option
    .custom<number>('an integer in 0..10', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 10)
    .optional(),
  journal: option
    .custom<NonNullable<ExecOptions['journal']>>(
      'a Journal (an object with load(runId) and append(runId, entry))',
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as { load?: unknown }).load === 'function' &&
        typeof (v as { append?: unknown }).append === 'function',
    )
    .optional(),
  runId: option.nonEmptyString('a non-empty run id').optional(),
  owner: option.nonEmptyString('a non-empty owner id').optional(),
  context: contextOptions().optional(),
  session: option
    .object({
      id: option.nonEmptyString('a non-empty session id'),
      owner: option.nonEmptyString('a non-empty owner id'),
      wait: option.boolean().optional(),
    })
    .optional(),
  // Each target checked when the exec opens (handoffs/routes.ts names the bad one).
  handoffs: option
    .custom<NonNullable<ExecOptions['handoffs']>>('an array of Agents or handoff(agent, options)', Array.isArray)
    .optional(),
  maxHandoffs: option.nonNegativeInt().optional(),
  agent: option.nonEmptyString('a non-empty agent name').optional(),
  guardrails: option.plainObject().optional(),
})
const execSchema = strictOptions(execShape)

// An option added to the types without a rule here (or the other way round) fails to compile.
const runtimeKeysMatch: SameKeys<ReturnType<typeof runtimeShape>, RuntimeOptions> = true
const execKeysMatch: SameKeys<ReturnType<typeof execShape>, ExecOptions> = true
void runtimeKeysMatch
void execKeysMatch

/** Every RuntimeOptions rule, checked in the constructor: a bad runtime never makes a request. */
export function validateRuntimeOptions(o: RuntimeOptions): void {
  parseOptions(runtimeSchema, o)
  if (o.context) checkContext(o.context)
  if (o.prices !== undefined) checkPrices(o.prices)
}

/** Every ExecOptions rule, checked once per exec() call. */
export function validateExecOptions(o: ExecOptions): void {
  if (!execSchema().accepts(o)) runtimeOnly(o)
  parseOptions(execSchema, o)
  if (o.history) validateHistory(o.history)
  if (o.context) checkContext(o.context)
  if (o.choices !== undefined) {
    // choices is typed output: one schema per exec.
    if (o.output !== undefined)
      throw invalidOption('choices', 'not together with output (choices is an output)', o.choices)
    choiceNames(o.choices)
  }
  if (o.outputRetries !== undefined && o.output === undefined && o.choices === undefined)
    throw invalidOption('outputRetries', 'to be given with output or choices', o.outputRetries)
  if (o.session !== undefined && o.history !== undefined)
    throw invalidOption('history', 'no history with session (the session is the history)', '[…]')
  // Without one the run id is the new exec's id: nothing could ever replay what the journal holds.
  if (o.journal !== undefined && o.runId === undefined)
    throw invalidOption(
      'runId',
      'a run id with journal, the same on every run of it (exec(input, { journal, runId }))',
      o.runId,
    )
}

/**
 * A key only a Runtime takes (`duplicateCalls`, `breakerThreshold`…) given to exec: said as such,
 * not answered with the nearest exec option's name.
 */
function runtimeOnly(o: object): void {
  const exec = execSchema().rules
  const runtime = runtimeSchema().rules
  for (const key of Object.keys(o))
    if (!exec.has(key) && runtime.has(key))
      throw new NestorError(
        'invalid_options',
        `unknown option ${key}: it is a Runtime option, not an exec option: new Runtime({ ${key} }) applies it to every exec of that runtime`,
      )
}

function checkContext({ maxTokens, reserveTokens }: ContextOptions): void {
  if (maxTokens !== undefined && reserveTokens !== undefined && reserveTokens >= maxTokens)
    throw invalidOption('context.reserveTokens', `fewer tokens than context.maxTokens (${maxTokens})`, reserveTokens)
}

/**
 * Messages already found well formed: a conversation passes the same message objects to exec after
 * exec, so each is checked once. Histories are append-only; the set is weak and keeps nothing alive.
 */
const wellFormed = new WeakSet<object>()
const historySchema = lazy(() => zod().strictObject({ history: zod().array(stateSchemas().messageSchema) }))

function validateHistory(history: readonly unknown[]): void {
  const first = firstUnchecked(history, 0)
  if (first < history.length) checkFrom(history, first)
}

/**
 * The index of the first message not yet found well formed (the length when there is none). Kept
 * apart from the schema check, so the hot scan is optimized without the parser (docs/architecture.md).
 */
function firstUnchecked(history: readonly unknown[], from: number): number {
  for (let i = from; i < history.length; i++) {
    const message = history[i]
    if (typeof message !== 'object' || message === null || !wellFormed.has(message)) return i
  }
  return history.length
}

function checkFrom(history: readonly unknown[], first: number): void {
  const { messageSchema } = stateSchemas()
  for (let i = first; i < history.length; i = firstUnchecked(history, i + 1)) {
    const message = history[i]
    // The first bad message is reported by the full schema, with its index in the history.
    if (!messageSchema.safeParse(completed(message)).success)
      parseOptions(historySchema, { history: history.map(completed) })
    wellFormed.add(message as object)
  }
}

/** A hand-written assistant message is checked as the loop will keep it (completeMessage). */
const completed = (message: unknown): unknown =>
  typeof message === 'object' && message !== null ? completeMessage(message as HistoryMessage) : message

/** `exec()`'s input: a string, a Message or a Message[], each message well formed. */
export function validateInput(input: unknown): void {
  if (typeof input === 'string') return
  const { messageSchema } = stateSchemas()
  const z = zod()
  const parsed = z.union([messageSchema, z.array(messageSchema)]).safeParse(input)
  if (parsed.success) return
  // Report against the most specific reading of the input: one message, or a list of them.
  const issues = Array.isArray(input)
    ? (z.array(messageSchema).safeParse(input).error?.issues ?? [])
    : typeof input === 'object' && input !== null
      ? (messageSchema.safeParse(input).error?.issues ?? [])
      : []
  const issue = issues[0]
  if (!issue) throw invalidOption('input', 'a string, a Message or a Message[]', input)
  let value: unknown = input
  for (const key of issue.path)
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined
  const path = issue.path.map(String).join('.')
  throw invalidOption(path ? `input.${path}` : 'input', `a well-formed Message (${issue.message})`, value)
}
