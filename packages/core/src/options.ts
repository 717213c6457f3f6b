import { z } from 'zod/v4'
import { invalidOption } from './errors.js'
import { option, parseOptions, type SameKeys } from './option-schema.js'
import { messageSchema } from './run-state-schema.js'
import type { ExecOptions, RuntimeOptions } from './types.js'

const MAX_ITERATIONS = 10_000

const iterations = () =>
  option.custom<number>(
    `an integer in 1..${MAX_ITERATIONS}, or Infinity`,
    (v) => v === Infinity || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_ITERATIONS),
  )

/** Throws `invalid_options` unless `value` is a valid iteration budget (undefined passes). */
export function checkIterations(name: string, value: unknown): void {
  if (value === undefined) return
  parseOptions(z.strictObject({ [name]: iterations() }), { [name]: value })
}

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
const modelName = () => option.nonEmptyString('a non-empty model name')

const hooksShape = {
  prepareTurn: option.function().optional(),
  beforeToolCall: option.function().optional(),
  afterToolCall: option.function().optional(),
}

const runtimeShape = {
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
  toolExecution: option.oneOf(['sequential', 'parallel']).optional(),
  duplicateCalls: option.oneOf(['reject', 'allow']).optional(),
  breakerThreshold: option.positiveInt().optional(),
  toolTimeoutMs: option.nonNegative().optional(),
  maxRetries: option.nonNegativeInt().optional(),
  secrets: option.stringList().optional(),
  queueMode: option.oneOf(['all', 'one']).optional(),
  steering: option.oneOf(['interrupt', 'after-turn']).optional(),
  maxToolConcurrency: option.positiveIntOrInfinity().optional(),
  maxTotalTokens: option.positiveInt().optional(),
  deadlineMs: option.nonNegative().optional(),
  streamIdleTimeoutMs: option.nonNegative().optional(),
  resetToolChoice: option.boolean().optional(),
  stopAtTools: toolNames().optional(),
  approve: option.function().optional(),
  hooks: z.strictObject(hooksShape).optional(),
  stateSecret: option.nonEmptyString().optional(),
  claimState: option.function().optional(),
  providerOptions: option.plainObject().optional(),
  retention: z
    .strictObject({
      replayWindow: option.nonNegativeInt().optional(),
      keepFinishedMs: option.nonNegative().optional(),
      maxFinishedRuns: option.nonNegativeInt().optional(),
    })
    .optional(),
}
const runtimeSchema = z.strictObject(runtimeShape)

const execShape = {
  tools: option.custom<unknown[]>('an array of tools', Array.isArray).optional(),
  toolset: option.oneOf(['all', 'none']).optional(),
  toolsAllow: toolNames().optional(),
  toolsDeny: toolNames().optional(),
  toolChoice: toolChoice().optional(),
  parallelToolCalls: option.boolean().optional(),
  maxIterations: iterations().optional(),
  model: modelName().optional(),
  provider: provider().optional(),
  system: option.string().optional(),
  history: z.array(messageSchema).optional(),
  signal: option.custom<AbortSignal>('an AbortSignal', (v) => v instanceof AbortSignal).optional(),
  providerOptions: option.plainObject().optional(),
  output: option
    .custom<ExecOptions['output']>('a zod schema or a JSON Schema object', (v) => typeof v === 'object' && v !== null)
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
}
const execSchema = z.strictObject(execShape)

// An option added to the types without a rule here (or the other way round) fails to compile.
const runtimeKeysMatch: SameKeys<typeof runtimeShape, RuntimeOptions> = true
const execKeysMatch: SameKeys<typeof execShape, ExecOptions> = true
void runtimeKeysMatch
void execKeysMatch

/** Every RuntimeOptions rule, checked in the constructor: a bad runtime never makes a request. */
export function validateRuntimeOptions(o: RuntimeOptions): void {
  parseOptions(runtimeSchema, o)
}

/** Every ExecOptions rule, checked once per exec() call. */
export function validateExecOptions(o: ExecOptions): void {
  parseOptions(execSchema, o)
  if (o.outputRetries !== undefined && o.output === undefined)
    throw invalidOption('outputRetries', 'to be given with output', o.outputRetries)
}

const inputSchema = z.union([z.string(), messageSchema, z.array(messageSchema)])

/** `exec()`'s input: a string, a Message or a Message[], each message well formed. */
export function validateInput(input: unknown): void {
  const parsed = inputSchema.safeParse(input)
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
