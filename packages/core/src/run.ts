import type { EventLog } from './event-log.js'
import type { ExecContext } from './exec-context.js'
import { toUserMessage } from './message-queue.js'
import type { AgentEvent, ExecResult, UserMessage } from './types.js'

/**
 * A running exec: iterate it for events (this exec's and its nested children's, from the first
 * one), await it for the ExecResult. Steering, follow-up and abort act on the running loop.
 */
export class ExecRun<O = unknown> implements AsyncIterable<AgentEvent>, PromiseLike<ExecResult<O>> {
  /** Resolves (never rejects) with the result. */
  readonly result: Promise<ExecResult<O>>
  readonly execId: string

  /** @internal */
  constructor(
    private readonly ctx: ExecContext | undefined,
    private readonly log: EventLog<AgentEvent>,
    result: Promise<ExecResult<O>>,
    execId: string,
  ) {
    this.result = result
    this.execId = execId
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    return this.log[Symbol.asyncIterator]()
  }

  then<A = ExecResult<O>, B = never>(
    onFulfilled?: ((value: ExecResult<O>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.result.then(onFulfilled, onRejected)
  }

  /** Queues a message for the running loop: injected before the next model call. */
  steer(message: string | UserMessage): void {
    this.ctx?.control.steering.push(toUserMessage(message))
  }

  /** Queues a message read only when the loop would otherwise end; the loop then continues. */
  followUp(message: string | UserMessage): void {
    this.ctx?.control.followUp.push(toUserMessage(message))
  }

  abort(reason?: unknown): void {
    this.ctx?.control.controller.abort(reason)
  }
}
