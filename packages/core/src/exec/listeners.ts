import { messageOf } from '../contract/errors.js'
import { currentFrame, outsideFrames } from './frame.js'
import type { AgentEvent } from '../contract/event-types.js'
import { warn } from '../platform/node.js'

type Handler = (event: AgentEvent) => void

/**
 * The runtime.on listeners. Every listener gets every event, whatever another listener does: each
 * call is isolated, and one that throws is reported once (a throw per delta of a long stream
 * would flood the warnings), then keeps being called. Listeners run outside any exec's frame.
 */
export class Listeners {
  private readonly byType = new Map<string, Handler[]>()
  private readonly reported = new WeakSet<Handler>()

  add(type: string, handler: Handler): () => void {
    const list = this.byType.get(type) ?? []
    // Copy on write: a dispatch in progress keeps the list it started with.
    this.byType.set(type, [...list, handler])
    let active = true
    return () => {
      if (!active) return
      active = false
      const current = this.byType.get(type) ?? []
      const at = current.indexOf(handler)
      if (at >= 0) this.byType.set(type, [...current.slice(0, at), ...current.slice(at + 1)])
    }
  }

  /** Removes every registration of `handler` for `type`. */
  remove(type: string, handler: Handler): void {
    const current = this.byType.get(type)
    if (current)
      this.byType.set(
        type,
        current.filter((h) => h !== handler),
      )
  }

  has(type: string): boolean {
    return (this.byType.get(type)?.length ?? 0) + (this.byType.get('*')?.length ?? 0) > 0
  }

  /** Sends `event` to the listeners of its type, then to the '*' listeners. */
  dispatch(event: AgentEvent, redact: (text: string) => string): void {
    const typed = this.byType.get(event.type)
    const all = this.byType.get('*')
    // This runs for every event a tracer or logger listens to: no closure unless a frame must be left.
    if (currentFrame() === undefined) this.send(typed, all, event, redact)
    else outsideFrames(() => this.send(typed, all, event, redact))
  }

  private send(
    typed: Handler[] | undefined,
    all: Handler[] | undefined,
    event: AgentEvent,
    redact: (text: string) => string,
  ): void {
    if (typed) for (const handler of typed) this.call(handler, event, redact)
    if (all) for (const handler of all) this.call(handler, event, redact)
  }

  private call(handler: Handler, event: AgentEvent, redact: (text: string) => string): void {
    try {
      const returned: unknown = handler(event)
      // An async listener's rejection is reported the same way, never an unhandled rejection.
      if (returned && typeof (returned as PromiseLike<unknown>).then === 'function')
        (returned as PromiseLike<unknown>).then(undefined, (error: unknown) =>
          this.report(handler, event, redact, error),
        )
    } catch (error) {
      this.report(handler, event, redact, error)
    }
  }

  private report(handler: Handler, event: AgentEvent, redact: (text: string) => string, error: unknown): void {
    if (this.reported.has(handler)) return
    this.reported.add(handler)
    // Where Node reports warnings; the listener keeps getting events, its later throws are quiet.
    warn(`a Nestor event listener threw on ${event.type} (reported once per listener): ${redact(messageOf(error))}`)
  }
}
