import type { AgentEvent, Runtime } from '@nestor/core'

type Call = { report(message: string): void; execs: Set<string> }

/**
 * Routes the runtime's events to the served call they belong to (its batch and every exec opened
 * under it), for progress notifications. One set of typed listeners per `serveMcp`, there only
 * while a call is in flight: each event costs one map lookup however many calls run, and the hot
 * events (message deltas) get no listener at all.
 */
export class ServedCalls {
  readonly #byExec = new Map<string, Call>()
  #inFlight = 0
  #off: (() => void)[] = []

  constructor(private readonly runtime: Runtime) {}

  /** Starts following a call; returns the function that ends it. */
  open(report: (message: string) => void): { follow(execId: string): void; close(): void } {
    if (this.#inFlight++ === 0) this.#listen()
    const call: Call = { report, execs: new Set() }
    return {
      follow: (execId) => {
        call.execs.add(execId)
        this.#byExec.set(execId, call)
      },
      close: () => {
        for (const id of call.execs) this.#byExec.delete(id)
        if (--this.#inFlight === 0) for (const off of this.#off.splice(0)) off()
      },
    }
  }

  #listen(): void {
    const on = this.runtime.on.bind(this.runtime) as (type: string, handler: (e: AgentEvent) => void) => () => void
    this.#off = [
      on('agent_start', (e) => {
        const call = e.parentExecId !== undefined ? this.#byExec.get(e.parentExecId) : undefined
        if (!call) return
        call.execs.add(e.execId)
        this.#byExec.set(e.execId, call)
      }),
      on('tool_update', (e) => {
        if (e.type !== 'tool_update') return
        this.#byExec.get(e.execId)?.report(typeof e.update === 'string' ? e.update : JSON.stringify(e.update))
      }),
      on('tool_start', (e) => {
        if (e.type === 'tool_start' && e.depth > 0) this.#byExec.get(e.execId)?.report(`calling ${e.toolName}`)
      }),
    ]
  }
}
