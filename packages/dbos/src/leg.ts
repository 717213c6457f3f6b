import type { ExecResult, ExecRun, Journal } from '@nestor/core'
import { streamSoFar, withPlainError, writeEvents } from './events.js'
import { deliverInbox, type OnInboxStep } from './inbox.js'

/**
 * Drives one leg of a durable exec (its start or a resume) to its result: feeds it the inbox from
 * `inboxOffset` on and copies its events to the stream. DBOS retries a stream write through a
 * dropped connection by itself; one it gives up on (or refuses because another process now owns
 * the workflow) aborts this leg and is what the step throws, so the failure is DBOS's to handle
 * (the new owner goes on; otherwise the workflow fails with it). Nothing is left without a
 * handler: a worker process never exits over one run.
 */
export async function driveLeg(
  workflowId: string,
  leg: number,
  run: ExecRun,
  journal: Journal,
  inboxOffset: number,
  onInboxStep?: OnInboxStep,
): Promise<ExecResult> {
  const inbox = deliverInbox(workflowId, run, journal, inboxOffset, onInboxStep)
  let failure: { error: unknown } | undefined
  const written = writeEvents(workflowId, run, streamSoFar(workflowId, leg)).catch((error: unknown) => {
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
