import type { AgentEvent, Runtime } from '@nestor/core'

/** A root exec the studio saw start, as the page lists it. */
export type LiveRun = { execId: string; input: string; startedAt: number; live: boolean; forkOf?: string }

/** How many root execs the list remembers; the runtime's own retention decides what can still be read. */
const REMEMBERED = 1000

/**
 * The root execs of a runtime, newest first, from its `agent_start` events: every run of the app
 * appears, however it was started. A run the runtime no longer keeps drops out of the list.
 */
export class LiveRuns {
  private readonly runs = new Map<string, LiveRun>()
  /** Fork exec id → the recorded run it forks (set when `fork` returns, maybe before its start event). */
  private readonly forks = new Map<string, string>()
  private readonly stop: () => void

  constructor(private readonly runtime: Runtime) {
    this.stop = runtime.on('agent_start', (event) => {
      if (event.depth !== 0) return
      this.runs.set(event.execId, {
        execId: event.execId,
        input: inputText(event),
        startedAt: event.timestamp,
        live: true,
      })
      if (this.runs.size > REMEMBERED) this.runs.delete(this.runs.keys().next().value as string)
    })
  }

  /** Marks a run the studio forked, so the page can show it beside its original. */
  forked(execId: string, runId: string): void {
    this.forks.set(execId, runId)
    if (this.forks.size > REMEMBERED) this.forks.delete(this.forks.keys().next().value as string)
  }

  list(): LiveRun[] {
    const out: LiveRun[] = []
    for (const run of this.runs.values()) {
      const attached = this.runtime.attach(run.execId, { after: 'latest' })
      if (!attached) this.runs.delete(run.execId)
      else {
        const forkOf = this.forks.get(run.execId)
        out.push({ ...run, live: attached.live, ...(forkOf !== undefined && { forkOf }) })
      }
    }
    return out.reverse()
  }

  close(): void {
    this.stop()
  }
}

/** The start of the run's last user message, for the list. */
function inputText(event: Extract<AgentEvent, { type: 'agent_start' }>): string {
  const user = [...event.input].reverse().find((m) => m.role === 'user')
  const content = user?.content
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('')
        : ''
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
