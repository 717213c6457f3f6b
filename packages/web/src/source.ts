import type { AgentEvent, ExecResult } from '@nestor/core'

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
}
