import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  isJSONRPCRequest,
  type ElicitRequest,
  type ElicitResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { NestorError, type ToolContext } from '@nestor/core'

type Content = NonNullable<ElicitResult['content']>

/**
 * The calls of one MCP session still waiting for their result, so a server's elicitation is
 * answered by the `ctx.ask` of the call that caused it: its handler (exec's, ancestor's,
 * runtime's) or, with none, a pause of the whole tree. MCP does not say which call a request
 * belongs to, but over Streamable HTTP a server that keeps events (resumability) gives each event
 * of a call's stream an id, which the SDK reports to that call just before the message: the call
 * it reported to asks. Otherwise, with several in flight the oldest asks (they run in the same app).
 */
export class CallsInFlight {
  readonly #calls: ToolContext[] = []
  /** The call whose stream delivered the event being handled, for the length of one delivery. */
  #heard: ToolContext | undefined
  /** Elicitation request id → the call whose stream carried it. */
  readonly #origins = new Map<RequestId, ToolContext>()

  /** Marks a call in flight until the returned function runs. */
  enter(ctx: ToolContext): () => void {
    this.#calls.push(ctx)
    return () => {
      const at = this.#calls.indexOf(ctx)
      if (at >= 0) this.#calls.splice(at, 1)
    }
  }

  /** The `onresumptiontoken` of a call's request: the next message delivered came on its stream. */
  heard(ctx: ToolContext): () => void {
    return () => {
      this.#heard = ctx
      // An event without a message (a priming event) leaves no claim on the next delivery.
      queueMicrotask(() => {
        if (this.#heard === ctx) this.#heard = undefined
      })
    }
  }

  /** Notes, for each elicitation the transport delivers, the call whose stream it came on. */
  watch(transport: Transport): void {
    const deliver = transport.onmessage
    transport.onmessage = (message, extra) => {
      const from = this.#heard
      this.#heard = undefined
      if (from && isJSONRPCRequest(message) && message.method === 'elicitation/create')
        this.#origins.set(message.id, from)
      deliver?.(message, extra)
    }
  }

  /**
   * A form elicitation asked through the calling `ctx.ask`. Declined when nothing can answer (no
   * call in flight, a URL elicitation, no handler: a pausing tree asks again when the call runs
   * again after its answer), cancelled when the wait was aborted.
   */
  async answer(params: ElicitRequest['params'], signal: AbortSignal, requestId: RequestId): Promise<ElicitResult> {
    const origin = this.#origins.get(requestId)
    this.#origins.delete(requestId)
    const ctx = origin && this.#calls.includes(origin) ? origin : this.#calls[0]
    if (!ctx || params.mode === 'url') return { action: 'decline' }
    try {
      const content = await ctx.ask(params.message, params.requestedSchema, { signal })
      return { action: 'accept', content: content as Content }
    } catch (error) {
      const aborted = signal.aborted || (NestorError.isInstance(error) && error.code === 'aborted')
      return { action: aborted ? 'cancel' : 'decline' }
    }
  }
}
