import type { AgentEvent, ExecResult } from '@nestor/core'
import { boundedEvents } from '@nestor/core/integration-kit'

/**
 * What the web helpers stream: an ExecRun (read from its first event) or an AttachedRun from
 * `runtime.attach(execId, { after })` (read after a position). Positions count every event of the
 * root run, nested execs' included, from 1.
 */
export type RunSource = AsyncIterable<AgentEvent> & {
  readonly execId: string
  /** Position of the event before the first one yielded; 0 (or absent) for a whole run. */
  readonly after?: number
  readonly result?: Promise<ExecResult>
  abort?(reason?: unknown): void
  /** An ExecRun's reader that holds nothing: a stalled client fails with `events_expired`. */
  [boundedEvents]?(): AsyncIterator<AgentEvent>
}

/** What a stream to a client reads: never a reader that keeps the run's events for it. */
export const clientReader = (run: RunSource): AsyncIterator<AgentEvent> =>
  run[boundedEvents]?.() ?? run[Symbol.asyncIterator]()
