import type { ExecResult, ExecRun, Journal, JournalEntry } from '@nestor/core'
import { dbos } from './peer.js'
import { withPlainError, writeEvents, type StreamSoFar } from './events.js'
import { EVENTS_STREAM } from './topics.js'
import { deliverInbox, type InboxStart, type OnInboxStep } from './inbox.js'

/**
 * Drives one leg of a durable exec (its start or a resume) to its result: feeds it the inbox from
 * where `inbox` says, copies its events to the stream and, if the leg ends the run, calls `onLast`
 * (when the run may have an inbox). DBOS retries a stream write through a
 * dropped connection by itself; one it gives up on (or refuses because another process now owns
 * the workflow) aborts this leg and is what the step throws, so the failure is DBOS's to handle
 * (the new owner goes on; otherwise the workflow fails with it). Nothing is left without a
 * handler: a worker process never exits over one run.
 */
export async function driveLeg(
  workflowId: string,
  run: ExecRun,
  journal: Journal,
  inbox: InboxStart,
  soFar: Promise<StreamSoFar>,
  { onStep, onLast }: { onStep?: OnInboxStep | undefined; onLast: () => Promise<void> },
): Promise<ExecResult> {
  const reader = deliverInbox(workflowId, run, journal, inbox, onStep)
  let failure: { error: unknown } | undefined
  const written = writeEvents(workflowId, run, soFar).catch((error: unknown) => {
    failure = { error }
    run.abort(error)
    return false
  })
  try {
    const result = await run.result
    const ends = !(result.status === 'paused' && result.pending)
    // A leg that ends the run does its last bookkeeping while its last events are written (the
    // inbox only if one may exist: a leg nobody steered skips that read).
    const last = ends && reader.mayHaveInbox() ? onLast() : undefined
    // Awaited below; a failure while the last row is written must not go unhandled meanwhile.
    last?.catch(() => undefined)
    const wroteEnd = await written
    await last
    if (failure) throw failure.error
    // Readers stop at the run's last event; a run that ended without writing one gets the
    // stream's close here, in this step, rather than a workflow operation of its own.
    if (ends && !wroteEnd) await dbos().closeStream(EVENTS_STREAM)
    return withPlainError(result)
  } finally {
    reader.stop()
  }
}

/**
 * The journal, the entries of `runIds` already loading (in one query when `source` can load several
 * runs at once): the first `load` of each run takes them, later ones read the journal again.
 */
export function preloaded(journal: Journal, runIds: string[], source: LoadsRuns = journal): Journal {
  const early = source.loadRuns
    ? source.loadRuns(runIds)
    : Promise.all(runIds.map(async (runId) => [runId, await journal.load(runId)] as const)).then(
        (runs) => new Map(runs),
      )
  // Read or not, a failed early load must not be an unhandled rejection; its reader gets it.
  early.catch(() => undefined)
  const unread = new Set(runIds)
  return {
    ...(journal.id === undefined ? {} : { id: journal.id }),
    append: (id, entry) => journal.append(id, entry),
    load(id) {
      if (!unread.delete(id)) return journal.load(id)
      return early.then((runs) => runs.get(id) ?? [])
    },
  }
}

/** A journal that may load several runs in one query (`postgresJournal` does). */
export type LoadsRuns = Journal & { loadRuns?: (runIds: string[]) => Promise<Map<string, JournalEntry[]>> }
