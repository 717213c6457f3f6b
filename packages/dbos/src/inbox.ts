import { DBOS } from '@dbos-inc/dbos-sdk'
import type { ExecRun } from '@nestor/core'
import type { Journal } from './journal-types.js'
import { INBOX_STREAM, INBOX_TOPIC, inboxCursorRunOf, inboxIdOf, type InboxMessage } from './topics.js'

/**
 * The body of an exec's inbox workflow. A running DBOS step cannot `recv`, and a workflow that
 * polled `recv` beside its exec step would record a timing-dependent number of operations (which
 * breaks DBOS's replay), so a second, tiny workflow owns the messages: it receives each one
 * durably and appends it to its stream, which the exec step reads while it runs.
 */
export async function inboxWorkflow(): Promise<void> {
  for (;;) {
    const message = await DBOS.recv<InboxMessage>(INBOX_TOPIC, { timeoutSeconds: 3600 })
    if (message === null) continue
    if (message.kind === 'close') break
    await DBOS.writeStream(INBOX_STREAM, message)
  }
  await DBOS.closeStream(INBOX_STREAM)
}

/**
 * Feeds the inbox to a running exec until `stop()`. Delivered offsets are recorded in the journal
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
      let message: InboxMessage
      try {
        message = await DBOS.readStreamOffset<InboxMessage>(inboxIdOf(workflowId), INBOX_STREAM, offset, {
          timeoutSeconds: 0.5,
          pollingIntervalMs: 100,
        })
      } catch {
        // Nothing new within the wait (or the inbox does not exist yet): look again unless stopped.
        await new Promise((resolve) => setTimeout(resolve, 100))
        continue
      }
      if (message.kind === 'close') return
      await journal.append(cursorRun, { key: `inbox:${offset}`, kind: 'message', offset })
      offset++
      if (stopped) return
      if (message.kind === 'steer') run.steer(message.text)
      else run.followUp(message.text)
    }
  })()
  return {
    stop() {
      stopped = true
    },
    done,
  }
}
