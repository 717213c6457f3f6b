import { NestorError } from '../contract/errors.js'
import { compileSchema, type InferArgs, type SchemaInput } from '../schema/schema.js'
import { compileParameters } from './tool-parameters.js'
import { compileControl } from './tool-control.js'
import {
  toolSource,
  type ApprovalPredicate,
  type CacheOptions,
  type PreparePreview,
  type ToolSource,
  type Tool,
  type ToolContext,
  type ToolControl,
  type ToolInput,
  type ToolOutput,
} from '../contract/types.js'

export type DefineToolOptions<S extends SchemaInput, R> = {
  name: string
  description: string
  parameters: S
  execute: (args: InferArgs<S>, ctx: ToolContext) => R | Promise<R>
  /** Result gate: a result failing this schema becomes an error result. */
  output?: SchemaInput
  needsApproval?: boolean | ApprovalPredicate<InferArgs<S>>
  /** What the approver sees of a call that needs approval (a diff, a plan): JSON, sent as `ApprovalRequest.preview`. */
  prepare?: PreparePreview<InferArgs<S>>
  timeoutMs?: number
  retries?: number
  cacheable?: boolean | CacheOptions<InferArgs<S>>
  /** At most this many bodies run at once across every exec and batch of one runtime. */
  concurrency?: number
  /** Reject argument keys the schema does not declare (and tell the model so). */
  strictArguments?: boolean
  /** Its result's status decides whether the loop or batch lane continues (docs/governance.md). */
  control?: ToolControl
}

const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/

/** The one tool-name rule, for every way a tool is made (defineTool, `{ spec, execute }`, agents). */
export function checkToolName(name: unknown): void {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new NestorError(
      'invalid_options',
      `invalid tool name ${JSON.stringify(name)}: use 1-64 of a-z A-Z 0-9 _ - . : starting with a letter or _`,
    )
  }
}

/** A tool with its arguments typed from the schema. Validation runs before `execute`, every call. */
export function defineTool<S extends SchemaInput, R>(options: DefineToolOptions<S, R>): Tool<InferArgs<S>, R> {
  checkToolName(options.name)
  const params = compileParameters(options.name, options.parameters)
  const tool: Tool<InferArgs<S>, R> = {
    spec: { name: options.name, description: options.description, parameters: params.json },
    execute: options.execute,
    validate: params.validate as Tool<InferArgs<S>, R>['validate'],
  }
  if (options.output) tool.validateOutput = compileSchema(options.output).validate
  if (options.needsApproval !== undefined) tool.needsApproval = options.needsApproval
  if (options.prepare !== undefined) tool.prepare = checkPrepare(options.name, options.prepare)
  if (options.timeoutMs !== undefined) tool.timeoutMs = options.timeoutMs
  if (options.retries !== undefined) tool.retries = options.retries
  if (options.strictArguments !== undefined) tool.strictArguments = options.strictArguments
  if (options.control !== undefined) tool.control = checkControl(options.name, options.control)
  if (options.cacheable !== undefined) tool.cacheable = checkCacheable(options.name, options.cacheable)
  if (options.concurrency !== undefined) {
    const n = options.concurrency
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
      throw new NestorError(
        'invalid_options',
        `invalid option concurrency of tool ${options.name}: expected a positive integer, got ${JSON.stringify(n)}`,
      )
    tool.concurrency = n
  }
  return tool
}

function checkControl(name: string, control: ToolControl): ToolControl {
  compileControl(name, control)
  return control
}

function checkPrepare<P>(name: string, prepare: P): P {
  if (typeof prepare !== 'function')
    throw new NestorError(
      'invalid_options',
      `invalid option prepare of tool ${name}: expected a function (args, ctx) => preview, got ${typeof prepare}`,
    )
  return prepare
}

function checkCacheable<A>(name: string, value: boolean | CacheOptions<A>): boolean | CacheOptions<A> {
  if (typeof value === 'boolean') return value
  const ok =
    typeof value === 'object' &&
    value !== null &&
    (value.ttlMs === undefined || (typeof value.ttlMs === 'number' && value.ttlMs > 0)) &&
    (value.scope === undefined || typeof value.scope === 'function')
  if (!ok)
    throw new NestorError(
      'invalid_options',
      `invalid option cacheable of tool ${name}: expected true, false or { ttlMs?: a number > 0, scope?: (args) => string }`,
    )
  return value
}

const isToolSource = (value: unknown): value is ToolSource =>
  (typeof value === 'object' || typeof value === 'function') && value !== null && toolSource in value

/**
 * Every accepted form → Tools: defineTool results, `{ spec, execute }` objects, agents and method
 * references (via the `toolSource` symbol). Plain tools without a validator get one compiled from
 * their JSON Schema, so every tool's arguments are checked.
 */
export function normalizeTools(inputs: readonly ToolInput[]): Tool[] {
  const out: Tool[] = []
  for (const input of inputs) {
    if (isToolSource(input)) {
      out.push(...input[toolSource]().map(normalizeOne))
    } else {
      out.push(normalizeOne(input as Tool))
    }
  }
  return out
}

const normalized = new WeakSet<Tool>()
function normalizeOne(input: Tool): Tool {
  if (normalized.has(input)) return input
  if (typeof input === 'function') {
    throw new NestorError(
      'invalid_options',
      `invalid option tools: function ${(input as { name?: string }).name || '(anonymous)'} is not a tool; a function is accepted only as a @tool-decorated method reference`,
    )
  }
  const spec = input?.spec
  if (!spec || typeof spec.name !== 'string' || typeof input.execute !== 'function') {
    throw new NestorError(
      'invalid_options',
      'invalid option tools: each tool needs .spec { name, description, parameters } and .execute',
    )
  }
  checkToolName(spec.name)
  if (input.control !== undefined) checkControl(spec.name, input.control)
  if (input.prepare !== undefined) checkPrepare(spec.name, input.prepare)
  if (input.validate) {
    normalized.add(input)
    return input
  }
  const parameters = spec.parameters ?? { type: 'object', properties: {} }
  const tool: Tool = {
    ...input,
    spec: { ...spec, description: spec.description ?? '', parameters },
    validate: compileParameters(spec.name, parameters).validate as Tool['validate'],
  }
  normalized.add(tool)
  return tool
}

/**
 * The return value of a tool as what the model sees: a string is one text part, `{ content }` is
 * passed through (its `details` stays out of the model's view), anything else is JSON.
 */
export function toToolOutput(value: unknown): ToolOutput {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  if (value && typeof value === 'object' && Array.isArray((value as ToolOutput).content)) {
    const out = value as ToolOutput
    return out.details === undefined ? { content: out.content } : { content: out.content, details: out.details }
  }
  if (value === undefined) return { content: [{ type: 'text', text: '' }] }
  return { content: [{ type: 'text', text: JSON.stringify(value) ?? String(value) }] }
}
