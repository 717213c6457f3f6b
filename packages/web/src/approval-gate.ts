import {
  NestorError,
  type ApprovalDecision,
  type ApprovalRequest,
  type InputRequest,
  type PendingInput,
  type Runtime,
} from '@nestor/core'
import { InputDesk, type Answered } from './input-desk.js'

type Waiting = { request: ApprovalRequest; decide: (decision: ApprovalDecision) => void }

export type ApprovalGateOptions = {
  /** A call nobody decides within this many ms is rejected ("approval timed out"). Default: it waits. */
  timeoutMs?: number
}

/**
 * Approvals decided, and questions answered, over HTTP. Pass `gate.approve` as the runtime's
 * `approve` handler: a call that needs approval waits (the run stays live, `approval_required` is
 * in its stream) until `gate.decide` answers it, the wait times out, or the run ends. Keyed by root
 * exec id and tool call id. `runRoutes` calls `gate.watch(runtime)` so a call of a run that ended
 * (aborted) is dropped, not kept forever. Pass `gate.ask` as the runtime's `ask` handler the same
 * way: a question (`ctx.ask`) waits for `gate.answer` (docs/asking.md).
 */
export class ApprovalGate {
  private readonly waiting = new Map<string, Waiting>()
  private readonly runtimes = new Set<Runtime>()
  private readonly timeoutMs: number | undefined
  private readonly desk: InputDesk

  constructor(options: ApprovalGateOptions = {}) {
    const { timeoutMs } = options
    if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0))
      throw new NestorError('invalid_options', `ApprovalGate timeoutMs must be a number > 0, got ${String(timeoutMs)}`)
    this.timeoutMs = timeoutMs
    this.desk = new InputDesk(timeoutMs)
  }

  /** Answers `ctx.ask` with what `answer` is given; the question waits until then, its timeout or the run's end. */
  readonly ask = (request: InputRequest): Promise<unknown> => this.desk.ask(request)

  /** The questions of one root exec waiting for an answer. */
  inputs(rootExecId: string): PendingInput[] {
    return this.desk.waiting(rootExecId)
  }

  /** Answers a waiting question: checked against its schema first; undefined when no such question waits. */
  answer(rootExecId: string, id: string, value: unknown): Answered | undefined {
    return this.desk.answer(rootExecId, id, value)
  }

  /** Drops the waiting calls of this runtime's runs when they end (runRoutes does this for you). */
  watch(runtime: Runtime): void {
    this.runtimes.add(runtime)
  }

  readonly approve = (request: ApprovalRequest): Promise<ApprovalDecision> =>
    new Promise((resolve) => {
      const root = request.path[0] ?? request.execId
      const key = keyOf(root, request.toolCallId)
      let timer: ReturnType<typeof setTimeout> | undefined
      const entry: Waiting = {
        request,
        decide: (decision) => {
          if (this.waiting.get(key) !== entry) return
          this.waiting.delete(key)
          clearTimeout(timer)
          resolve(decision)
        },
      }
      this.waiting.set(key, entry)
      if (this.timeoutMs !== undefined) {
        timer = setTimeout(() => entry.decide({ approved: false, reason: 'approval timed out' }), this.timeoutMs)
        timer.unref?.()
      }
      for (const runtime of this.runtimes) {
        const run = runtime.attach(root, { after: 'latest' })
        if (run) void run.result.then(() => entry.decide({ approved: false, reason: 'the run ended' }))
      }
    })

  /** The calls of one root exec waiting for a decision. */
  pending(rootExecId: string): ApprovalRequest[] {
    return [...this.waiting.values()]
      .filter((w) => (w.request.path[0] ?? w.request.execId) === rootExecId)
      .map((w) => w.request)
  }

  /** Answers a waiting call; false when no such call waits (unknown, or already decided). */
  decide(rootExecId: string, toolCallId: string, decision: ApprovalDecision): boolean {
    const waiting = this.waiting.get(keyOf(rootExecId, toolCallId))
    if (!waiting) return false
    waiting.decide(decision)
    return true
  }
}

const keyOf = (rootExecId: string, toolCallId: string) => `${rootExecId}\u0000${toolCallId}`
