import { NestorError, invalidOption } from '../contract/errors.js'
import type { ExecContext } from '../exec/context.js'
import { generateId } from '../base/ids.js'
import { inPool } from '../base/pool.js'
import { asInternal } from '../exec/hooks.js'
import { closeCall, NOT_RUN, notRunAnswer } from './answers.js'
import { runToolCall } from './stages.js'
import type {
  BatchCallResult,
  BatchLane,
  BatchResult,
  BatchStop,
  ParallelBatchResult,
} from '../contract/batch-types.js'
import type { ToolCall } from '../contract/types.js'
import { projectArguments } from '../tools/tool-parameters.js'

/** Documented defaults: a plan larger than this is a mistake far more often than a need. */
export const DEFAULT_MAX_LANES = 256
export const DEFAULT_MAX_CALLS = 1024

export type BatchBounds = { maxLanes?: number; maxCalls?: number }
/** What every plan shape takes besides its bounds: `project` keeps only what each tool declares. */
type PlanOptions = BatchBounds & { project?: boolean }

function checkProject(value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') throw invalidOption('project', 'a boolean', value)
  return value === true
}

/** A bound is a positive integer; a plan over it is rejected naming the key and the count. */
function checkBound(key: 'maxLanes' | 'maxCalls', value: number | undefined, fallback: number, count: number): void {
  const limit = value ?? fallback
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)
    throw invalidOption(key, 'a positive integer', limit)
  if (count > limit)
    throw new NestorError(
      'invalid_options',
      `invalid batch plan, nothing was run: ${count} ${key === 'maxLanes' ? 'lanes' : 'calls'} exceed ${key} ${limit}`,
    )
}

type PlannedCall = { tool: string; args: Record<string, unknown>; callKey?: string; itemKey?: string }

/**
 * Batches run tool calls with no model in the loop, through the same gates as the loop's calls.
 * The whole plan is validated first: one bad call rejects the batch before anything runs. With
 * `projected`, each call's arguments are first cut to its tool's parameters (as the model is told
 * them, so a strictArguments tool is closed); returns the calls to run.
 */
function validatePlan(ctx: ExecContext, planned: PlannedCall[], projected = false): PlannedCall[] {
  const problems: string[] = []
  const calls = projected ? planned.map((call, i) => projectCall(ctx, call, i, problems)) : planned
  for (const [i, call] of calls.entries()) {
    const where = whereOf(call, i)
    const tool = ctx.tools.get(call.tool)
    if (!tool) {
      problems.push(`${where}: unknown tool ${JSON.stringify(call.tool)}`)
      continue
    }
    const checked = tool.validate?.(call.args)
    if (checked && !checked.ok)
      problems.push(`${where}: invalid arguments for ${call.tool}: ${checked.issues.join('; ')}`)
  }
  if (problems.length)
    throw new NestorError('invalid_options', `invalid batch plan, nothing was run:\n- ${problems.join('\n- ')}`)
  return calls
}

/** How a plan problem names its call. */
const whereOf = (call: PlannedCall, index: number): string =>
  call.itemKey !== undefined ? `lane ${call.itemKey} call ${call.callKey}` : `call ${call.callKey ?? index}`

function projectCall(ctx: ExecContext, call: PlannedCall, index: number, problems: string[]): PlannedCall {
  const tool = ctx.tools.get(call.tool)
  if (!tool) return call
  try {
    return { ...call, args: projectArguments(tool, ctx.tools.strict, call.args) }
  } catch (error) {
    problems.push(`${whereOf(call, index)}: ${(error as Error).message}`)
    return call
  }
}

function assertUniqueKeys(label: string, keys: (string | undefined)[]): void {
  const seen = new Set<string>()
  for (const key of keys) {
    if (key === undefined) continue
    if (typeof key !== 'string') throw invalidOption(label, 'string keys', key)
    if (seen.has(key))
      throw new NestorError(
        'invalid_options',
        `invalid batch plan, nothing was run: duplicate ${label} ${JSON.stringify(key)}`,
      )
    seen.add(key)
  }
}

/** One planned call through the loop's pipeline; `thrown` when a hook (or a bug) threw on the way. */
async function runOne(
  ctx: ExecContext,
  batchId: string,
  call: PlannedCall,
): Promise<{ done: BatchCallResult; thrown?: { error: unknown } }> {
  const toolCall: ToolCall = { type: 'toolCall', id: generateId('call'), name: call.tool, arguments: call.args }
  const outcome = await runToolCall(ctx, toolCall)
  const keys = {
    batchId,
    ...(call.itemKey !== undefined && { itemKey: call.itemKey }),
    ...(call.callKey !== undefined && { callKey: call.callKey }),
  }
  // A batch has no one to pause for: a call that needs approval without a handler is rejected.
  const answer =
    outcome.kind === 'pause'
      ? notRunAnswer(ctx, toolCall, 'rejected', NOT_RUN.needsApproval, keys)
      : { result: outcome.result, receipt: { ...outcome.receipt, ...keys } }
  // Redacted like every receipt: the signature holds the call's arguments.
  const receipt = ctx.env.redact(answer.receipt)
  // Listeners saw this call's tool_start; they see its end too, receipt and keys included.
  closeCall(ctx, toolCall, { result: answer.result, receipt })
  const done = withKey(call, { result: answer.result, receipt })
  return outcome.kind === 'result' && outcome.thrown ? { done, thrown: outcome.thrown } : { done }
}

/** The stop a call's control envelope decided, or undefined when its batch or lane goes on. */
function controlStop({ callKey, receipt }: BatchCallResult): BatchStop | undefined {
  const control = receipt.control
  if (control?.decision !== 'stop') return undefined
  const stop: BatchStop = {
    reason: 'control_stop',
    toolName: receipt.toolName,
    toolCallId: receipt.toolCallId,
    control,
  }
  return callKey !== undefined ? { ...stop, callKey } : stop
}

const withKey = (call: PlannedCall, r: Omit<BatchCallResult, 'callKey'>): BatchCallResult =>
  call.callKey !== undefined ? { callKey: call.callKey, ...r } : r

// The plan is checked synchronously (a bad plan throws `invalid_options` at the call, like any
// configuration error); only running it is asynchronous.
export function runBatch(
  ctx: ExecContext,
  calls: { tool: string; args: Record<string, unknown>; callKey?: string }[],
  options: { stopOnError?: boolean } & PlanOptions,
): Promise<BatchResult> {
  if (!Array.isArray(calls)) throw invalidOption('calls', 'an array of { tool, args, callKey? }', calls)
  const projected = checkProject(options.project)
  checkBound('maxCalls', options.maxCalls, DEFAULT_MAX_CALLS, calls.length)
  assertUniqueKeys(
    'callKey',
    calls.map((c) => c.callKey),
  )
  return runPlan(ctx, validatePlan(ctx, calls, projected), options)
}

async function runPlan(
  ctx: ExecContext,
  calls: PlannedCall[],
  options: { stopOnError?: boolean },
): Promise<BatchResult> {
  const batchId = generateId('batch')
  const results: BatchCallResult[] = []
  for (const call of calls) {
    const { done, thrown } = await runOne(ctx, batchId, call)
    results.push(done)
    // A hook or a bug: the batch stops, and says why beside what it did (never a rejection).
    if (thrown)
      return {
        batchId,
        results,
        receipts: results.map((r) => r.receipt),
        error: ctx.env.redact(asInternal(thrown.error)),
      }
    const stopped = controlStop(done)
    if (stopped) return { batchId, results, receipts: results.map((r) => r.receipt), stopped }
    if (options.stopOnError && done.result.isError) break
  }
  return { batchId, results, receipts: results.map((r) => r.receipt) }
}

export function runParallelBatch(
  ctx: ExecContext,
  lanes: BatchLane[],
  options: { maxConcurrency: number } & PlanOptions,
): Promise<ParallelBatchResult> {
  const width = options?.maxConcurrency
  if (typeof width !== 'number' || !Number.isInteger(width) || width < 1)
    throw invalidOption('maxConcurrency', 'a positive integer', width)
  const projected = checkProject(options.project)
  if (!Array.isArray(lanes)) throw invalidOption('lanes', 'an array of { itemKey, calls }', lanes)
  checkBound('maxLanes', options.maxLanes, DEFAULT_MAX_LANES, lanes.length)
  for (const lane of lanes) {
    if (typeof lane?.itemKey !== 'string' || !Array.isArray(lane.calls))
      throw invalidOption('lanes', 'lanes of { itemKey: string, calls: [...] }', lane)
    if (lane.calls.some((c) => typeof c?.callKey !== 'string'))
      throw invalidOption(`lane ${lane.itemKey}`, 'calls each with a string callKey', lane.calls)
  }
  checkBound(
    'maxCalls',
    options.maxCalls,
    DEFAULT_MAX_CALLS,
    lanes.reduce((n, lane) => n + lane.calls.length, 0),
  )
  assertUniqueKeys(
    'itemKey',
    lanes.map((l) => l.itemKey),
  )
  for (const lane of lanes)
    assertUniqueKeys(
      `callKey in lane ${lane.itemKey}`,
      lane.calls.map((c) => c.callKey),
    )
  const planned = validatePlan(
    ctx,
    lanes.flatMap((lane) => lane.calls.map((c) => ({ ...c, itemKey: lane.itemKey }))),
    projected,
  )
  if (!projected) return runLanes(ctx, lanes, width)
  // The projected calls, back in their lanes (validatePlan keeps the plan's order).
  let next = 0
  const cut = lanes.map((lane) => ({ ...lane, calls: lane.calls.map((c) => ({ ...c, args: planned[next++]!.args })) }))
  return runLanes(ctx, cut, width)
}

async function runLanes(ctx: ExecContext, lanes: BatchLane[], width: number): Promise<ParallelBatchResult> {
  const batchId = generateId('batch')
  const out: ParallelBatchResult['lanes'] = lanes.map((lane) => ({ itemKey: lane.itemKey, results: [] }))
  let error: NestorError | undefined
  try {
    await inPool(lanes.length, width, async (index) => {
      const lane = lanes[index] as BatchLane
      const slot = out[index] as ParallelBatchResult['lanes'][number]
      for (const call of lane.calls) {
        const { done, thrown } = await runOne(ctx, batchId, { ...call, itemKey: lane.itemKey })
        slot.results.push(done)
        if (thrown) throw thrown.error
        const stopped = controlStop(done)
        if (stopped) {
          // Only this lane stops: the envelope judged this item, not the others.
          slot.stopped = stopped
          break
        }
      }
    })
  } catch (thrown) {
    // A hook or a bug stops the other lanes too (no new lane starts), reported beside the results.
    error = asInternal(thrown)
  }
  const result: ParallelBatchResult = {
    batchId,
    lanes: out,
    receipts: out.flatMap((l) => l.results.map((r) => r.receipt)),
  }
  if (error) result.error = ctx.env.redact(error)
  return result
}
