// The public types of batches: tool calls run through the loop's gates with no model.

import type { AgentEvent } from './event-types.js'
import type { ExecStop } from './exec-types.js'
import type { AskHandler, ToolInput, ToolReceipt, ToolResultMessage, NestorErrorLike } from './types.js'

export type BatchCall = { tool: string; args: Record<string, unknown>; callKey?: string }
/** What `runBatch` and `runParallelBatch` take besides their own options. */
export type BatchOptions = {
  tools?: ToolInput[]
  signal?: AbortSignal
  /**
   * Answers the questions (`ctx.ask`) of this batch's calls and the execs they open, in place of the
   * runtime's handler: a batch cannot pause, so without one they fail `input_unavailable`.
   */
  ask?: AskHandler
  /**
   * Sees every event of this batch and of the execs its calls open, synchronously as each is
   * emitted: a subscription to this batch only, where `runtime.on` sees every exec.
   */
  onEvent?: (event: AgentEvent) => void
  /** Lanes a parallel plan may hold; more is rejected (`invalid_options`) before any call. Default 256. */
  maxLanes?: number
  /** Calls a plan may hold (all lanes together); more is rejected before any call. Default 1024. */
  maxCalls?: number
  /**
   * Cut each call's arguments to what its tool's parameters declare (`project`) before the plan
   * is checked, so a larger record can feed a closed schema. Default false.
   */
  project?: boolean
}
export type BatchLane = { itemKey: string; calls: { callKey: string; tool: string; args: Record<string, unknown> }[] }
export type BatchCallResult = { callKey?: string; result: ToolResultMessage; receipt: ToolReceipt }
/** A call whose control envelope decided stop: its batch (or lane) ran nothing after it. */
export type BatchStop = ExecStop & { callKey?: string }
/** `error` is set when a hook or a bug stopped the batch; `results` holds what ran before. */
export type BatchResult = {
  batchId: string
  results: BatchCallResult[]
  receipts: ToolReceipt[]
  error?: NestorErrorLike
  stopped?: BatchStop
}
export type ParallelBatchResult = {
  batchId: string
  /** A lane stopped by a control envelope says so; the other lanes go on. */
  lanes: { itemKey: string; results: BatchCallResult[]; stopped?: BatchStop }[]
  receipts: ToolReceipt[]
  error?: NestorErrorLike
}
