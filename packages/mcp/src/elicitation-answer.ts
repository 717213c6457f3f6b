import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { NestorError, type ToolContext } from '@nestor/core'

type Content = NonNullable<ElicitResult['content']>

/**
 * The calls of one MCP session still waiting for their result, so a server's elicitation is
 * answered by the `ctx.ask` of the call that caused it: its handler (exec's, ancestor's,
 * runtime's) or, with none, a pause of the whole tree. MCP does not say which call a request
 * belongs to; with several in flight the oldest asks (they run in the same app).
 */
export class CallsInFlight {
  readonly #calls: ToolContext[] = []

  /** Marks a call in flight until the returned function runs. */
  enter(ctx: ToolContext): () => void {
    this.#calls.push(ctx)
    return () => {
      const at = this.#calls.indexOf(ctx)
      if (at >= 0) this.#calls.splice(at, 1)
    }
  }

  /**
   * A form elicitation asked through the calling `ctx.ask`. Declined when nothing can answer (no
   * call in flight, a URL elicitation, no handler: a pausing tree asks again when the call runs
   * again after its answer), cancelled when the wait was aborted.
   */
  async answer(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const ctx = this.#calls[0]
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
