import { dbos, dbosSdk, isMissingWorkflow } from './peer.js'
import { randomUUID } from 'node:crypto'
import type { ExecRun, Journal, Message } from '@nestor/core'
import { NestorError } from '@nestor/core'
import {
  CANCEL_DECISION,
  DECISION_TOPIC,
  INBOX_STREAM,
  INBOX_TOPIC,
  execIdOfInbox,
  inboxCursorRunOf,
  inboxIdOf,
  type InboxMessage,
} from './topics.js'

/** The steps of taking a message, for `durable({ onInboxStep })` (a test seam: a kill at each). */
export type InboxStep = 'received' | 'handed' | 'taken'
export type OnInboxStep = (step: InboxStep, workflowId: string) => void

/**
 * The body of an exec's inbox workflow. A running DBOS step cannot `recv`, and a workflow that
 * polled `recv` beside its exec step would record a timing-dependent number of operations (which
 * breaks DBOS's replay), so a second, tiny workflow owns the messages: it receives each one
 * durably and appends it to its stream, which the exec step reads while it runs.
 */
export async function inboxWorkflow(idleCheckMs: number, onStep?: OnInboxStep): Promise<void> {
  const execId = execIdOfInbox(dbos().workflowID as string)
  for (;;) {
    const message = await dbos().recv<InboxMessage>(INBOX_TOPIC, { timeoutSeconds: idleCheckMs / 1000 })
    if (message === null) {
      // Bounded by its exec: an inbox whose exec has ended, or never started (a failure between
      // the two starts), ends instead of waiting for a close that will not come.
      if (await execIsOver(execId)) break
      continue
    }
    if (message.kind === 'close') break
    if (message.kind === 'steer' || message.kind === 'followUp') onStep?.('received', execId)
    await dbos().writeStream(INBOX_STREAM, message)
    if (message.kind === 'cancel') {
      // A running leg reads the stream; a workflow waiting for a decision gets this instead.
      await dbos().send(execId, CANCEL_DECISION, DECISION_TOPIC)
      break
    }
  }
  await dbos().closeStream(INBOX_STREAM)
}

/** How long an idle inbox waits, by default, before it checks that its exec still runs (`inboxIdleCheckMs`). */
export const INBOX_IDLE_CHECK_MS = 60_000
const OVER = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED'])

/**
 * Ends the inbox of a run whose last leg this is, from inside that leg's step, if it may have one
 * (`mayHaveInbox`): a read, then a send fenced on the workflow's owner if the inbox runs. An inbox
 * a steer starts after this look ends at its next idle check (it finds its exec over).
 */
export async function closeInbox(workflowId: string): Promise<void> {
  const status = await dbos().getWorkflowStatus(inboxIdOf(workflowId))
  if (status === null || OVER.has(status.status)) return
  await dbos().send<InboxMessage>(inboxIdOf(workflowId), { kind: 'close' }, INBOX_TOPIC)
}

async function execIsOver(execId: string): Promise<boolean> {
  const status = await dbos().getWorkflowStatus(execId)
  return status === null || OVER.has(status.status)
}

/**
 * Feeds the inbox to a running exec, from where `deliverWaiting` stopped, until
 * `stop()` (which does not wait for the pending read). Delivered offsets are recorded in the
 * journal (its own run id) before the message goes to the loop, so a recovered step does not hand
 * the loop a message twice: at most once, and the loop's own journal keeps the ones it took.
 */
export function deliverInbox(
  workflowId: string,
  run: ExecRun,
  journal: Journal,
  { offset, quiet }: InboxStart,
  onStep?: OnInboxStep,
): { stop(): void; mayHaveInbox(): boolean; done: Promise<void> } {
  let stopped = false
  // Whether the run may have an inbox its last leg must close: a message was sent or handed
  // before this leg, or a look found one. A steer that starts it after the last look finds its
  // exec over at its idle check.
  let found = !quiet
  const done = (async () => {
    const cursorRun = inboxCursorRunOf(workflowId)
    // Nothing sent so far (deliverWaiting just looked): the first look is a poll later, so a
    // short leg nobody steers reads nothing while it runs.
    if (quiet) await new Promise((resolve) => setTimeout(resolve, INBOX_POLL_MS))
    while (!stopped) {
      const message = await readInbox(workflowId, offset, 5)
      if (message !== 'none') found = true
      if (typeof message !== 'object') continue
      // Stopped while reading: the message stays in the inbox for the next leg of the exec.
      if (message.kind === 'close' || stopped) return
      if (message.kind === 'cancel') return run.abort(new NestorError('aborted', `run ${workflowId} was cancelled`))
      await journal.append(cursorRun, { key: `${HANDED}${offset}`, kind: 'message', offset })
      offset++
      onStep?.('handed', workflowId)
      deliver(run, message)
    }
  })().catch(() => {
    // A failed read or cursor write loses no message: it stays in the inbox for the next leg.
  })
  return {
    stop() {
      stopped = true
    },
    mayHaveInbox: () => found,
    done,
  }
}

/**
 * Hands a run that has just been created the messages it must get before its first model call:
 * those an earlier leg was handed but whose loop never took them (a crash between the cursor's
 * record and the loop's, or a leg that ended first), then those sent before this leg started,
 * waiting only for ones `steer()` recorded as sent that the inbox has not relayed yet. Taken means
 * in the run's journal; so each message enters the loop exactly once. A run nobody steered costs
 * no query of its own here (the cursor comes with the leg's journal read, durable.ts); a message
 * sent later reaches the loop through `deliverInbox`.
 */
export async function deliverWaiting(
  workflowId: string,
  journal: Journal,
  onStep?: OnInboxStep,
): Promise<{ handOver(run: ExecRun): void } & InboxStart> {
  const cursorRun = inboxCursorRunOf(workflowId)
  const entries = await journal.load(cursorRun)
  let offset = entries.filter((entry) => entry.key.startsWith(HANDED)).length
  const sent = entries.filter((entry) => entry.key.startsWith(SENT)).length
  const waiting: InboxMessage[] = offset > 0 ? await handedNotTaken(workflowId, offset, journal) : []
  while (offset < sent) {
    const message = await readInboxAt(workflowId, offset, RELAY_WAIT_SECONDS)
    if (typeof message !== 'object' || message.kind === 'close' || message.kind === 'cancel') break
    await journal.append(cursorRun, { key: `${HANDED}${offset}`, kind: 'message', offset })
    onStep?.('handed', workflowId)
    waiting.push(message)
    offset++
  }
  const quiet = entries.length === 0
  return { handOver: (run) => waiting.forEach((message) => deliver(run, message)), offset, quiet }
}

/** Where a leg's inbox reader starts: its offset, and `quiet` when no message was ever sent or handed. */
export type InboxStart = { offset: number; quiet: boolean }

/** Records, beside the inbox cursor, that a steering message or follow-up was sent (after DBOS took it). */
export async function recordSent(journal: Journal, workflowId: string): Promise<void> {
  await journal.append(inboxCursorRunOf(workflowId), { key: `${SENT}${randomUUID()}`, kind: 'message' })
}

// Keys of the cursor's journal run: one per message handed to a loop, one per message sent.
const HANDED = 'inbox:'
const SENT = 'sent:'
// How long a leg waits for the inbox to relay a message already sent (it takes the inbox's queue
// poll and a write): past that, the message reaches the loop later, through deliverInbox.
const RELAY_WAIT_SECONDS = 5

/** The messages at inbox offsets below `handed` that no root `message` entry of the run's journal holds. */
async function handedNotTaken(workflowId: string, handed: number, journal: Journal): Promise<InboxMessage[]> {
  const taken = new Map<string, number>()
  for (const entry of await journal.load(workflowId)) {
    if (entry?.kind !== 'message' || typeof entry.key !== 'string' || !ROOT_MESSAGE.test(entry.key)) continue
    // Read raw here: a malformed entry counts nothing (the exec's own read refuses it, naming its key).
    const messages: unknown = entry['messages']
    if (!Array.isArray(messages)) continue
    for (const message of messages as Message[]) {
      const text = textOf(message)
      if (text !== undefined) taken.set(text, (taken.get(text) ?? 0) + 1)
    }
  }
  const missed: InboxMessage[] = []
  for (let offset = 0; offset < handed; offset++) {
    const message = await peekInbox(workflowId, offset)
    if (typeof message !== 'object' || (message.kind !== 'steer' && message.kind !== 'followUp')) continue
    const left = taken.get(message.text) ?? 0
    if (left > 0) taken.set(message.text, left - 1)
    else missed.push(message)
  }
  return missed
}

/** The journal with `onStep('taken')` after each steering or follow-up entry the root loop records. */
export function tapTakenMessages(journal: Journal, workflowId: string, onStep: OnInboxStep): Journal {
  // Keeps the id: a paused state then names this journal instead of holding a copy of its entries.
  return {
    ...(journal.id === undefined ? {} : { id: journal.id }),
    load: (runId) => journal.load(runId),
    async append(runId, entry) {
      await journal.append(runId, entry)
      if (runId === workflowId && entry.kind === 'message' && ROOT_MESSAGE.test(entry.key)) onStep('taken', workflowId)
    },
  }
}

const ROOT_MESSAGE = /^root#\d+:message:\d+$/

function textOf(message: Message): string | undefined {
  if (message?.role !== 'user') return undefined
  if (typeof message.content === 'string') return message.content
  if (!Array.isArray(message.content)) return undefined
  return message.content.map((part) => (part?.type === 'text' ? part.text : '')).join('')
}

/** How often a running leg looks for a new message: the bound on steering latency, and its query rate. */
const INBOX_POLL_MS = 250

function deliver(run: ExecRun, message: InboxMessage): void {
  if (message.kind === 'steer') run.steer(message.text)
  else if (message.kind === 'followUp') run.followUp(message.text)
}

/** Waits up to `waitSeconds` for the message at `offset`; 'none' when there is no inbox yet, 'empty' when none came. */
async function readInbox(
  workflowId: string,
  offset: number,
  waitSeconds: number,
): Promise<InboxMessage | 'empty' | 'none'> {
  const message = await readInboxAt(workflowId, offset, waitSeconds)
  if (typeof message === 'object' || message === 'empty') return message
  // No inbox workflow yet (a read fails at once then), or a failed read: look again a poll later.
  await new Promise((resolve) => setTimeout(resolve, INBOX_POLL_MS))
  return message === 'none' ? 'none' : 'empty'
}

/**
 * The message at `offset` as it stands now, in one query: 'empty' when none is there yet, 'none'
 * when no inbox workflow exists, 'failed' when the read failed (the database, say).
 */
const peekInbox = (workflowId: string, offset: number) => readInboxAt(workflowId, offset, 0)

async function readInboxAt(
  workflowId: string,
  offset: number,
  waitSeconds: number,
): Promise<InboxMessage | 'empty' | 'none' | 'failed'> {
  try {
    return await dbos().readStreamOffset<InboxMessage>(inboxIdOf(workflowId), INBOX_STREAM, offset, {
      timeoutSeconds: waitSeconds,
      pollingIntervalMs: INBOX_POLL_MS,
    })
  } catch (error) {
    // A stream timeout: nothing at that offset within the wait (or the inbox ended before it).
    if (dbosSdk().Error.isStreamTimeoutError(error)) return 'empty'
    return isMissingWorkflow(error) ? 'none' : 'failed'
  }
}
