import { sha256Hex } from '../platform/node.js'
import { untilAbort } from '../base/abort-watch.js'
import { callSignature } from '../base/canonical.js'
import { NestorError, messageOf } from '../contract/errors.js'
import type { Journal, JournalEntry } from '../contract/journal.js'
import type {
  ApprovalRequest,
  AssistantMessage,
  Message,
  ToolCall,
  ToolReceipt,
  ToolResultMessage,
} from '../contract/types.js'
import type { PriorDecision } from './exec-state.js'
import { markEdited } from './edited-steps.js'
import { checkedEntries } from './journal-entry.js'
import { keyPart } from './journal-key.js'

/**
 * The journal of one exec tree. Every tree records its finished steps (in memory at least, so a
 * pause at any depth can be resumed from the root); with a `journal` option they are also appended
 * there, durably, before the tree goes on. Entries loaded at the start are replayed by key.
 */
export type TreeJournal = {
  runId: string
  journal?: Journal
  /** Every entry of this run in order: the loaded ones, then the new ones (what a paused state carries). */
  recorded: JournalEntry[]
  /** The entries to replay, by key. */
  replay: Map<string, JournalEntry>
  /** Settles once `replay` is filled (an external journal loads asynchronously). */
  ready?: Promise<void>
  /** Decisions a resume gave for calls paused below the root, by decision key. */
  decisions: Map<string, PriorDecision>
  /** The decision key of each request that paused, so a resume finds the call again by key. */
  waiting: Map<ApprovalRequest, string>
  /** In-memory model entries whose input digest is computed only if a paused state carries them. */
  unhashed: Map<JournalEntry, Message[]>
  /** A contradicted step anywhere in the tree fails every exec of it. */
  failure?: NestorError
}

/** One exec's place in its tree's journal (a field of its context). */
export type ExecJournal = {
  key: string
  tree: TreeJournal
  /** A root's input, redacted: kept with its first model step so a fork can start without it. */
  input?: Message[]
  /** Steering and follow-up entries taken so far (they number the next one). */
  messages: number
  /** Children opened per tool call id (the next child's index). */
  children: Map<string, number>
  /** The exec's abort: a journal store that never answers does not hold an aborted exec. */
  signal?: AbortSignal
}

// A key names where a step happened: the exec's path, the model turn (iteration) and the call.
// Call ids come from the model: `keyPart` escapes the separators in them, so no two steps share a key.
const modelKey = (exec: string, iteration: number) => `${exec}#${iteration}:model`
const toolKey = (exec: string, iteration: number, id: string) => `${exec}#${iteration}:tool:${keyPart(id)}`
const decisionKey = (exec: string, iteration: number, id: string) => `${exec}#${iteration}:decision:${keyPart(id)}`
const messageKey = (exec: string, iteration: number, n: number) => `${exec}#${iteration}:message:${n}`

/** A fresh tree journal: what is given is replayed, what happens is recorded. */
export function treeJournal(runId: string, journal: Journal | undefined, given: JournalEntry[] = []): TreeJournal {
  const tree: TreeJournal = {
    runId,
    recorded: [],
    replay: new Map(),
    decisions: new Map(),
    waiting: new Map(),
    unhashed: new Map(),
  }
  if (journal) tree.journal = journal
  // Every entry is checked before anything replays it: a bad one fails the exec naming its key.
  const fill = (entries: unknown) => {
    for (const entry of checkedEntries(entries, runId)) {
      tree.recorded.push(entry)
      tree.replay.set(entry.key, entry)
    }
  }
  fill(given)
  if (journal && given.length === 0) {
    // Called on a later tick: a load that throws synchronously fails the exec like one that rejects.
    tree.ready = Promise.resolve()
      .then(() => journal.load(runId))
      .then(fill, (error: unknown) => {
        throw journalError('load', error)
      })
    // An exec refused before its loop runs (a lost claim) never awaits it: no unhandled rejection.
    tree.ready.catch(() => undefined)
  }
  return tree
}

/** The root exec's place in a tree journal. */
export const rootJournal = (tree: TreeJournal): ExecJournal => ({ key: 'root', tree, messages: 0, children: new Map() })

/**
 * The place of an exec opened inside a tool body: its parent's key, the tool call id whose body
 * opened it and its index among that body's children; `execId` is the one a replayed child had.
 * Undefined outside a journaled tree.
 */
export function childJournal(
  parent: ExecJournal | undefined,
  toolCallId: string,
): { journal: ExecJournal; execId?: string } | undefined {
  if (!parent) return undefined
  const index = parent.children.get(toolCallId) ?? 0
  parent.children.set(toolCallId, index + 1)
  const key = `${parent.key}/${keyPart(toolCallId)}:${index}`
  const journal: ExecJournal = { key, tree: parent.tree, messages: 0, children: new Map() }
  const first = parent.tree.replay.get(modelKey(key, 1))
  return typeof first?.execId === 'string' ? { journal, execId: first.execId } : { journal }
}

/**
 * A call's idempotency key: a hash of its run id and its journal key (the exec's path in the tree,
 * the iteration, the tool call id), which a replay or a recovery rebuilds identically and no other
 * call shares (without a journal: the exec id and the call id). Hashed so that it is header-safe
 * and bounded whatever the run id holds; computed on first read, so calls whose body never reads it
 * pay nothing.
 */
export function idempotencyKeyOf(
  exec: ExecJournal | undefined,
  execId: string,
  iteration: number,
  toolCallId: string,
): () => string {
  let key: string | undefined
  return () => {
    if (key !== undefined) return key
    const [runId, step] = exec ? [exec.tree.runId, toolKey(exec.key, iteration, toolCallId)] : [execId, toolCallId]
    key = sha256Hex(`${runId}\0${step}`)
    return key
  }
}

/** Records a step: in memory always, in the journal durably. A promise only when there is something to wait for. */
function record(exec: ExecJournal, entry: JournalEntry): Promise<void> | undefined {
  if (exec.tree.replay.has(entry.key) || !keptInMemory(exec, entry.kind)) return undefined
  exec.tree.recorded.push(entry)
  const journal = exec.tree.journal
  if (!journal) return undefined
  const saving = journal.append(exec.tree.runId, entry).catch((error: unknown) => {
    throw journalError('append', error)
  })
  return exec.signal ? untilAbort(saving, exec.signal, abortedWaiting) : saving
}

/** Settles once the tree's recorded entries are loaded; rejects `aborted` as soon as this exec aborts. */
export function journalLoaded(exec: ExecJournal | undefined): Promise<void> | undefined {
  const ready = exec?.tree.ready
  return ready && exec.signal ? untilAbort(ready, exec.signal, abortedWaiting) : ready
}

const abortedWaiting = () => new NestorError('aborted', 'aborted while waiting for the journal')

/**
 * Without a journal of its own, a tree keeps its steps in memory only so a pause below the root
 * can be resumed: a resumed root goes on from its state and never replays its own steps, so those
 * (and, once a root call has finished, its children's) are not kept. A long run's memory then
 * holds what its history holds, not every step it took (docs/context.md).
 */
const keptInMemory = (exec: ExecJournal, kind: JournalEntry['kind']): boolean =>
  exec.tree.journal !== undefined || exec.key !== 'root' || kind === 'decision'

/** After a root call finished in a tree without a journal: its children's steps are dropped. */
function forgetChildren(exec: ExecJournal, callId: string): void {
  const prefix = `root/${keyPart(callId)}:`
  const recorded = exec.tree.recorded
  let kept = 0
  for (const entry of recorded) if (!entry.key.startsWith(prefix)) recorded[kept++] = entry
  recorded.length = kept
  for (const entry of exec.tree.unhashed.keys()) if (entry.key.startsWith(prefix)) exec.tree.unhashed.delete(entry)
}

function journalError(what: 'load' | 'append', error: unknown): NestorError {
  if (NestorError.isInstance(error)) return error
  return new NestorError('hook_error', `the journal's ${what} failed: ${messageOf(error)}`, { cause: error })
}

function mismatch(exec: ExecJournal, key: string, why: string): NestorError {
  const error = new NestorError(
    'journal_mismatch',
    `journal step ${key} contradicts this run: ${why} (see docs/durability.md, "The determinism rule")`,
  )
  exec.tree.failure ??= error
  return error
}

/** Throws the tree's journal failure, if any: a contradicted step ends every exec of the tree. */
export function throwIfContradicted(exec: ExecJournal | undefined): void {
  if (exec?.tree.failure) throw exec.tree.failure
}

/** What a first model step keeps of its exec's input (with the steering taken before it). */
export const inputDigest = (messages: Message[]): string => sha256Hex(JSON.stringify(messages)).slice(0, 32)

/**
 * The recorded model turn for this iteration, or undefined (the turn runs live). The first turn
 * also checks that the exec starts from the input it was recorded with (its history from `startIndex`).
 */
export function replayedTurn(
  exec: ExecJournal | undefined,
  iteration: number,
  history: Message[],
  startIndex: number,
): AssistantMessage | undefined {
  if (!exec || exec.tree.replay.size === 0) return undefined
  const key = modelKey(exec.key, iteration)
  const entry = exec.tree.replay.get(key)
  if (!entry) return undefined
  if (entry.input !== undefined && entry.input !== inputDigest(history.slice(startIndex)))
    throw mismatch(exec, key, 'the exec was opened with other input than the recorded one')
  const message = structuredClone(entry.message as AssistantMessage)
  return entry.edited === true ? markEdited(message) : message
}

/**
 * Records a finished model turn, the last message of `history` (ids already made unique, so a
 * replay finds the same calls). The first turn keeps a digest of the exec's input with it.
 */
export function recordTurn(
  exec: ExecJournal | undefined,
  iteration: number,
  execId: string,
  history: Message[],
  startIndex: number,
): Promise<void> | undefined {
  if (!exec) return undefined
  const message = history[history.length - 1] as AssistantMessage
  const entry: JournalEntry = { key: modelKey(exec.key, iteration), kind: 'model', execId, message }
  if (iteration === 1) {
    // Hashed now when the entry goes to a journal; an in-memory entry only if a paused state
    // ever carries it (entriesToStore), which most runs never do.
    const input = history.slice(startIndex, -1)
    if (exec.tree.journal) {
      entry.input = inputDigest(input)
      // The root's own input (not the steering taken before this turn), for runtime.fork.
      if (exec.input) entry.rootInput = exec.input
    } else if (keptInMemory(exec, 'model')) exec.tree.unhashed.set(entry, input)
  }
  return record(exec, entry)
}

/** A tree's recorded entries, complete for storing in a RunState (every input digest computed). */
export function entriesToStore(tree: TreeJournal): JournalEntry[] {
  for (const [entry, input] of tree.unhashed) entry.input = inputDigest(input)
  tree.unhashed.clear()
  return tree.recorded
}

/** What closes a call: the result the model reads and the receipt that records it. */
export type CallAnswer = { result: ToolResultMessage; receipt: ToolReceipt }

/**
 * The recorded answer of a call, or undefined when it runs live. A call whose body opened child
 * execs runs again (its children replay), so only leaf calls come back here.
 */
export function replayedTool(exec: ExecJournal | undefined, iteration: number, call: ToolCall): CallAnswer | undefined {
  if (!exec || exec.tree.replay.size === 0) return undefined
  const key = toolKey(exec.key, iteration, call.id)
  const entry = exec.tree.replay.get(key)
  if (!entry) return undefined
  if (entry.signature !== callSignature(call.name, call.arguments))
    throw mismatch(exec, key, `it recorded ${String(entry.signature)}, the code called ${call.name}`)
  if (typeof entry.children === 'number' && entry.children > 0) return undefined
  const answer = structuredClone({ result: entry.result as ToolResultMessage, receipt: entry.receipt as ToolReceipt })
  if (entry.edited === true) markEdited(answer.result)
  return answer
}

export function recordTool(
  exec: ExecJournal | undefined,
  iteration: number,
  call: ToolCall,
  { result, receipt }: CallAnswer,
): Promise<void> | undefined {
  if (!exec) return undefined
  const entry: JournalEntry = {
    key: toolKey(exec.key, iteration, call.id),
    kind: 'tool',
    signature: callSignature(call.name, call.arguments),
    result,
    receipt,
  }
  const children = exec.children.get(call.id)
  if (children) entry.children = children
  if (children && !keptInMemory(exec, 'tool')) forgetChildren(exec, call.id)
  return record(exec, entry)
}

/** A decision taken earlier for this call: recorded in the journal, or given to a resume. */
export function priorDecision(exec: ExecJournal | undefined, iteration: number, id: string): PriorDecision | undefined {
  if (!exec) return undefined
  const key = decisionKey(exec.key, iteration, id)
  const entry = exec.tree.replay.get(key)
  if (entry) return entry.decision as PriorDecision
  return exec.tree.decisions.get(key)
}

export function recordDecision(
  exec: ExecJournal | undefined,
  iteration: number,
  id: string,
  decision: PriorDecision,
): Promise<void> | undefined {
  if (!exec) return undefined
  return record(exec, { key: decisionKey(exec.key, iteration, id), kind: 'decision', decision })
}

/** Remembers where a paused call sits, so a resume's decision for it finds it again. */
export function markPaused(exec: ExecJournal | undefined, iteration: number, request: ApprovalRequest): void {
  if (exec) exec.tree.waiting.set(request, decisionKey(exec.key, iteration, request.toolCallId))
}

/**
 * Steering or follow-up messages taken before model turn `next`: the recorded ones when this point
 * was recorded, nothing when a recorded turn follows (what waits stays queued), else what `take`
 * drains (recorded).
 */
export function takeMessages(
  exec: ExecJournal | undefined,
  next: number,
  take: () => Message[],
): { messages: Message[]; replayed: boolean; saved?: Promise<void> } {
  if (!exec) return { messages: take(), replayed: false }
  if (exec.tree.replay.size > 0) {
    const recorded: Message[] = []
    for (let entry; (entry = exec.tree.replay.get(messageKey(exec.key, next, exec.messages))); exec.messages++)
      for (const message of structuredClone(entry.messages as Message[]))
        recorded.push(entry.edited === true ? markEdited(message) : message)
    if (recorded.length > 0) return { messages: recorded, replayed: true }
    if (exec.tree.replay.has(modelKey(exec.key, next))) return { messages: [], replayed: false }
  }
  const messages = take()
  if (messages.length === 0) return { messages, replayed: false }
  const saved = record(exec, { key: messageKey(exec.key, next, exec.messages++), kind: 'message', messages })
  return saved ? { messages, replayed: false, saved } : { messages, replayed: false }
}

// A compaction is a step of its own: a replay applies the recorded one and never summarizes again.
const contextKey = (exec: string, iteration: number, reason: string) => `${exec}#${iteration}:context:${reason}`

/** True when this run recorded model turn `iteration` (it replays: nothing is decided live before it). */
export const turnRecorded = (exec: ExecJournal | undefined, iteration: number): boolean =>
  exec !== undefined && exec.tree.replay.has(modelKey(exec.key, iteration))

/** The compaction recorded before model turn `iteration` for `reason`, if any. */
export function replayedCompaction(
  exec: ExecJournal | undefined,
  iteration: number,
  reason: 'limit' | 'overflow',
): JournalEntry | undefined {
  if (!exec || exec.tree.replay.size === 0) return undefined
  const entry = exec.tree.replay.get(contextKey(exec.key, iteration, reason))
  return entry && structuredClone(entry)
}

export function recordCompaction(
  exec: ExecJournal | undefined,
  iteration: number,
  reason: 'limit' | 'overflow',
  fields: Record<string, unknown>,
): Promise<void> | undefined {
  if (!exec) return undefined
  return record(exec, { ...fields, key: contextKey(exec.key, iteration, reason), kind: 'context' })
}
