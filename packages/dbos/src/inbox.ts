import type { ExecRun, Journal } from '@nestor/core'
import { dbosSdk } from './peer.js'
import { INBOX_STREAM, INBOX_TOPIC, inboxCursorRunOf, inboxIdOf, type InboxMessage } from './topics.js'

/**
 * The body of an exec's inbox workflow. A running DBOS step cannot `recv`, and a workflow that
 * polled `recv` beside its exec step would record a timing-dependent number of operations (which
 * breaks DBOS's replay), so a second, tiny workflow owns the messages: it receives each one
 * durably and appends it to its stream, which the exec step reads while it runs.
 */
export async function inboxWorkflow(): Promise<void> {
  const { DBOS } = dbosSdk()
  for (;;) {
    const message = await DBOS.recv<InboxMessage>(INBOX_TOPIC, { timeoutSeconds: 3600 })
    if (message === null) continue
    if (message.kind === 'close') break
    await DBOS.writeStream(INBOX_STREAM, message)
  }
  await DBOS.closeStream(INBOX_STREAM)
}

/**
 * Feeds the inbox to a running exec until `stop()` (which does not wait for the pending read). Delivered offsets are recorded in the journal
 * (its own run id) before the message goes to the loop, so a recovered step does not hand the
 * loop a message twice: at most once, and the loop's own journal keeps the ones it took.
 */
export function deliverInbox(
  workflowId: string,
  run: ExecRun,
  journal: Journal,
): { stop(): void; done: Promise<void> } {
  let stopped = false
  const done = (async () => {
    const cursorRun = inboxCursorRunOf(workflowId)
    let offset = (await journal.load(cursorRun)).length
    while (!stopped) {
      const message = await readInbox(workflowId, offset, 0.5)
      if (message === undefined) continue
      // Stopped while reading: the message stays in the inbox for the next leg of the exec.
      if (message.kind === 'close' || stopped) return
      await journal.append(cursorRun, { key: `inbox:${offset}`, kind: 'message', offset })
      offset++
      deliver(run, message)
    }
  })().catch(() => {
    // A failed read or cursor write loses no message: it stays in the inbox for the next leg.
  })
  return {
    stop() {
      stopped = true
    },
    done,
  }
}

/**
 * Hands the messages already waiting (sent while the exec was queued or paused) to a run that has
 * just been created, so they reach it before its first model call; returns them for the record.
 */
export async function deliverWaiting(workflowId: string, journal: Journal): Promise<(run: ExecRun) => void> {
  const cursorRun = inboxCursorRunOf(workflowId)
  let offset = (await journal.load(cursorRun)).length
  const waiting: InboxMessage[] = []
  for (;;) {
    const message = await readInbox(workflowId, offset, 0.05)
    if (message === undefined || message.kind === 'close') break
    await journal.append(cursorRun, { key: `inbox:${offset}`, kind: 'message', offset })
    waiting.push(message)
    offset++
  }
  return (run) => waiting.forEach((message) => deliver(run, message))
}

function deliver(run: ExecRun, message: InboxMessage): void {
  if (message.kind === 'steer') run.steer(message.text)
  else if (message.kind === 'followUp') run.followUp(message.text)
}

async function readInbox(workflowId: string, offset: number, waitSeconds: number): Promise<InboxMessage | undefined> {
  try {
    return await dbosSdk().DBOS.readStreamOffset<InboxMessage>(inboxIdOf(workflowId), INBOX_STREAM, offset, {
      timeoutSeconds: waitSeconds,
      pollingIntervalMs: 50,
    })
  } catch {
    // Nothing new within the wait (or the inbox does not exist yet).
    await new Promise((resolve) => setTimeout(resolve, 20))
    return undefined
  }
}
