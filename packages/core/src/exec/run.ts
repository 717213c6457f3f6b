import { messageOf } from '../contract/errors.js'
import { boundedEvents, type EventLog } from '../events/event-log.js'
import type { ExecContext } from './context.js'
import { currentFrame, outsideFrames } from './frame.js'
import { toUserMessage } from './message-queue.js'
import type { AgentEvent } from '../contract/event-types.js'
import type { ChoiceOf, ExecInput, ExecOptions, ExecOutputOf, ExecResult } from '../contract/exec-types.js'
import type { OutputSchema, UserMessage } from '../contract/types.js'
import { warn } from '../platform/node.js'

declare module '../contract/types.js' {
  interface ToolContext {
    /**
     * Opens a nested exec as this call's child, exactly as the ambient `exec()` does from a tool
     * body (inheritance, depth, events, budgets, approvals), with no AsyncLocalStorage: the way to
     * nest where it is missing (browsers), and wherever the body passes work to code that loses
     * the async context (a callback queue, a worker). docs/loop.md
     */
    exec<S extends OutputSchema | undefined = undefined, const C extends string = never>(
      input: ExecInput,
      options?: ExecOptions<S, C>,
    ): ExecRun<ExecOutputOf<S, C>, ChoiceOf<C>>
  }
}

/**
 * A running exec: iterate it for events (this exec's and its nested children's, from the first
 * one), await it for the ExecResult. It is a Promise of that result (`then`, `catch`, `finally`,
 * `instanceof Promise`), which never rejects: a failure is a result with `status: 'failed'`.
 * Steering, follow-up and abort act on the running loop.
 */
export class ExecRun<O = unknown, C extends string = string>
  extends Promise<ExecResult<O, C>>
  implements AsyncIterable<AgentEvent>
{
  // then/catch/finally return plain promises: a derived promise is no run (and the constructor
  // below is not an executor constructor).
  static override get [Symbol.species](): PromiseConstructor {
    return Promise
  }

  /** Resolves (never rejects) with the result: the same value as awaiting the run. */
  readonly result: Promise<ExecResult<O, C>>
  readonly execId: string
  readonly #ctx: ExecContext
  readonly #log: EventLog<AgentEvent>

  /** @internal */
  constructor(ctx: ExecContext, result: Promise<ExecResult<O, C>>) {
    super((resolve, reject) => result.then(resolve, reject))
    this.result = result
    this.execId = ctx.execId
    this.#ctx = ctx
    this.#log = ctx.control.log
  }

  /** Every event from the first, each kept until this iterator has read it. */
  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    return this.#log[Symbol.asyncIterator]()
  }

  /**
   * Calls `listener` synchronously with every event of this run (nested execs' included): those
   * already published that the run still keeps (all of them right after `exec()` returns), then
   * each as it is published, until the run ends. Unlike iterating, it
   * costs no promise per event and keeps nothing for the listener. A listener that throws is
   * reported once (a warning) and keeps being called; like `runtime.on`, it runs outside any
   * exec's frame. Returns the unsubscribe function.
   */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    let reported = false
    const call = (event: AgentEvent) => {
      try {
        listener(event)
      } catch (error) {
        if (reported) return
        reported = true
        warn(
          `a Nestor run subscriber threw on ${event.type} (reported once): ${this.#ctx.env.redact(messageOf(error))}`,
        )
      }
    }
    return this.#log.subscribe((event) =>
      currentFrame() === undefined ? call(event) : outsideFrames(() => call(event)),
    )
  }

  /** @internal A reader that fails with `events_expired` once it falls out of the replay window. */
  [boundedEvents](): AsyncIterator<AgentEvent> {
    return this.#log.bounded()
  }

  /** Queues a message for the running loop: injected before the next model call. */
  steer(message: string | UserMessage): void {
    this.#ctx.control.steering.push(toUserMessage(message))
  }

  /** Queues a message read only when the loop would otherwise end; the loop then continues. */
  followUp(message: string | UserMessage): void {
    this.#ctx.control.followUp.push(toUserMessage(message))
  }

  abort(reason?: unknown): void {
    this.#ctx.control.controller.abort(reason)
  }
}
