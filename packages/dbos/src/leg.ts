import type { ExecResult, ExecRun, Journal } from '@nestor/core'
import { withPlainError, writeEvents } from './events.js'
import { deliverInbox, type OnInboxStep } from './inbox.js'
import { legsRunOf } from './topics.js'

/**
 * Drives one leg of a durable exec (its start or a resume) to its result: feeds it the inbox and
 * copies its events to the stream. DBOS retries a stream write through a dropped connection by
 * itself; one it gives up on (or refuses because another process now owns the workflow) aborts
 * this leg and is what the step throws, so the failure is DBOS's to handle (the new owner goes
 * on; otherwise the workflow fails with it). Nothing is left without a handler: a worker process
 * never exits over one run.
 */
export async function driveLeg(
  workflowId: string,
  leg: number,
  run: ExecRun,
  journal: Journal,
  onInboxStep?: OnInboxStep,
): Promise<ExecResult> {
  const inbox = deliverInbox(workflowId, run, journal, onInboxStep)
  let failure: { error: unknown } | undefined
  const written = writeEvents(workflowId, run, legStarted(workflowId, leg, journal)).catch((error: unknown) => {
    failure = { error }
    run.abort(error)
  })
  try {
    const result = await run.result
    await written
    if (failure) throw failure.error
    return withPlainError(result)
  } finally {
    inbox.stop()
  }
}

/**
 * Records that this leg started, and says whether it had started before: a process running it
 * died, and the stream already holds part of its events.
 */
async function legStarted(workflowId: string, leg: number, journal: Journal): Promise<boolean> {
  const run = legsRunOf(workflowId)
  const key = `leg:${leg}`
  if ((await journal.load(run)).some((entry) => entry.key === key)) return true
  await journal.append(run, { key, kind: 'message', leg })
  return false
}
