/** Names this package uses inside DBOS: one place, so a sender and a receiver cannot disagree. */
export const EVENTS_STREAM = 'nestor.events'
export const INBOX_STREAM = 'nestor.inbox'
export const INBOX_TOPIC = 'nestor.inbox'
export const DECISION_TOPIC = 'nestor.decision'

/** The inbox workflow of an exec workflow: steering and follow-ups are sent to it. */
export const inboxIdOf = (workflowId: string) => `${workflowId}.inbox`
/** Where the inbox reader records how far it has delivered (a journal run of its own). */
export const inboxCursorRunOf = (workflowId: string) => `${workflowId}#inbox`

/** `close`: the run ended; `cancel`: `cancel()` asked the running leg to abort (and the inbox to end). */
/** Where each leg of an exec records that it started (a journal run of its own): a re-run knows it is one. */
export const legsRunOf = (workflowId: string) => `${workflowId}#legs`

export type InboxMessage = { kind: 'steer' | 'followUp'; text: string } | { kind: 'close' } | { kind: 'cancel' }

/** What the inbox sends a workflow that waits for a decision when cancel() reaches it. */
export const CANCEL_DECISION = { nestorCancel: true } as const
export const isCancelDecision = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && (message as Record<string, unknown>)['nestorCancel'] === true

/** The exec workflow an inbox workflow serves. */
export const execIdOfInbox = (inboxId: string) => inboxId.slice(0, -'.inbox'.length)
