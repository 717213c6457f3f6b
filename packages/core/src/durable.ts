import { createHash } from 'node:crypto'
import { callSignature } from './canonical.js'
import { NestorError, messageOf } from './errors.js'
import type { ExecContext, PriorDecision } from './exec-context.js'
import type { Frame } from './frame.js'
import type { Journal, JournalEntry } from './journal.js'
import type { ApprovalRequest, AssistantMessage, Message, ToolCall, ToolReceipt, ToolResultMessage } from './types.js'

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
  /** A contradicted step anywhere in the tree fails every exec of it. */
  failure?: NestorError
}

/** Per exec: its key in the tree and what its tool bodies opened. */
type ExecJournal = {
  key: string
  tree: TreeJournal
  /** Steering and follow-up entries taken so far (they number the next one). */
  messages: number
  /** Children opened per tool call id (the next child's index). */
  children: Map<string, number>
  /** Approvals a child exec paused on, per the tool call whose body opened it. */
  paused: Map<string, ApprovalRequest[]>
}

const execs = new WeakMap<ExecContext, ExecJournal>()
/** The decision key of each request that paused, so a resume can find the call again by key. */
const requestKeys = new WeakMap<ApprovalRequest, string>()

export const modelKey = (exec: string, iteration: number) => `${exec}#${iteration}:model`
export const toolKey = (exec: string, iteration: number, id: string) => `${exec}#${iteration}:tool:${id}`
export const decisionKey = (exec: string, iteration: number, id: string) => `${exec}#${iteration}:decision:${id}`
const messageKey = (exec: string, iteration: number, n: number) => `${exec}#${iteration}:message:${n}`

/** A fresh tree journal: what is given is replayed, what happens is recorded. */
export function treeJournal(runId: string, journal: Journal | undefined, given: JournalEntry[] = []): TreeJournal {
  const tree: TreeJournal = { runId, recorded: [], replay: new Map(), decisions: new Map() }
  if (journal) tree.journal = journal
  const fill = (entries: JournalEntry[]) => {
    for (const entry of entries) {
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

/** Where an exec sits in its tree's journal; `execId` is the one a replayed child had. */
export type JournalSlot = { key: string; tree: TreeJournal; execId?: string }

/**
 * The slot of an exec opened inside a tool body: its parent's key, the tool call id whose body
 * opened it and its index among that body's children. Undefined outside a journaled tree.
 */
export function childSlot(frame: Frame | undefined): JournalSlot | undefined {
  const parent = frame && execs.get(frame.ctx)
  if (!parent || !frame) return undefined
  const index = parent.children.get(frame.toolCallId) ?? 0
  parent.children.set(frame.toolCallId, index + 1)
  const key = `${parent.key}/${frame.toolCallId}:${index}`
  const first = parent.tree.replay.get(modelKey(key, 1))
  return typeof first?.execId === 'string'
    ? { key, tree: parent.tree, execId: first.execId }
    : { key, tree: parent.tree }
}

/** Gives an exec its place in the tree journal (the root's key is `root`). */
export function joinJournal(ctx: ExecContext, slot: JournalSlot | undefined): void {
  if (slot) execs.set(ctx, { key: slot.key, tree: slot.tree, messages: 0, children: new Map(), paused: new Map() })
}

export const journalOf = (ctx: ExecContext): TreeJournal | undefined => execs.get(ctx)?.tree

/** The run id and journal key of a tool call: what names it across replays and recoveries. */
export const toolStepOf = (ctx: ExecContext, iteration: number, id: string): [string, string] | undefined => {
  const exec = execs.get(ctx)
  return exec && [exec.tree.runId, toolKey(exec.key, iteration, id)]
}

/** The load the exec must wait for (rejecting with what stopped it: another run's file…), if any. */
export const journalPending = (ctx: ExecContext): Promise<void> | undefined => execs.get(ctx)?.tree.ready

/** Records a step: in memory always, in the journal durably. Returns a promise only when there is something to wait for. */
function record(exec: ExecJournal, entry: JournalEntry): Promise<void> | undefined {
  if (exec.tree.replay.has(entry.key)) return undefined
  exec.tree.recorded.push(entry)
  const journal = exec.tree.journal
  if (!journal) return undefined
  return journal.append(exec.tree.runId, entry).catch((error: unknown) => {
    throw journalError('append', error)
  })
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
export function throwIfContradicted(ctx: ExecContext): void {
  const failure = execs.get(ctx)?.tree.failure
  if (failure) throw failure
}

const digest = (messages: Message[]) => createHash('sha256').update(JSON.stringify(messages)).digest('hex').slice(0, 32)

/**
 * The recorded model turn for this iteration, or undefined (the turn runs live). The first turn of
 * an exec also checks that the exec starts from the input it was recorded with.
 */
export function replayedTurn(ctx: ExecContext, iteration: number): AssistantMessage | undefined {
  const exec = execs.get(ctx)
  if (!exec || exec.tree.replay.size === 0) return undefined
  const key = modelKey(exec.key, iteration)
  const entry = exec.tree.replay.get(key)
  if (!entry) return undefined
  if (entry.input !== undefined && entry.input !== digest(ctx.state.history.slice(ctx.state.startIndex)))
    throw mismatch(exec, key, 'the exec was opened with other input than the recorded one')
  return structuredClone(entry.message as AssistantMessage)
}

/** Records a finished model turn (ids already made unique, so a replay finds the same calls). */
export function recordTurn(ctx: ExecContext, iteration: number, message: AssistantMessage): Promise<void> | undefined {
  const exec = execs.get(ctx)
  if (!exec) return undefined
  const entry: JournalEntry = { key: modelKey(exec.key, iteration), kind: 'model', execId: ctx.execId, message }
  if (iteration === 1) {
    const input = ctx.state.history.slice(ctx.state.startIndex, -1)
    // Hashed now when the entry goes to a journal; an in-memory entry is hashed only if a paused
    // state ever carries it (entriesToStore), which most runs never do.
    if (exec.tree.journal) entry.input = digest(input)
    else unhashedInputs.set(entry, input)
  }
  return record(exec, entry)
}

/** The input messages of in-memory model entries whose digest is not computed yet. */
const unhashedInputs = new WeakMap<JournalEntry, Message[]>()

/** A tree's recorded entries, complete for storing in a RunState (every input digest computed). */
export function entriesToStore(tree: TreeJournal): JournalEntry[] {
  for (const entry of tree.recorded) {
    const input = unhashedInputs.get(entry)
    if (input === undefined) continue
    entry.input = digest(input)
    unhashedInputs.delete(entry)
  }
  return tree.recorded
}

/** A recorded tool result that replays without running the body; undefined when the call runs live. */
export type ReplayedTool = { result: ToolResultMessage; receipt: ToolReceipt }

/**
 * The recorded outcome of a call. A call whose body opened child execs is run again (its children
 * replay), so only leaf calls come back here.
 */
export function replayedTool(ctx: ExecContext, iteration: number, call: ToolCall): ReplayedTool | undefined {
  const exec = execs.get(ctx)
  if (!exec || exec.tree.replay.size === 0) return undefined
  const key = toolKey(exec.key, iteration, call.id)
  const entry = exec.tree.replay.get(key)
  if (!entry) return undefined
  if (entry.signature !== callSignature(call.name, call.arguments))
    throw mismatch(exec, key, `it recorded ${String(entry.signature)}, the code called ${call.name}`)
  if (typeof entry.children === 'number' && entry.children > 0) return undefined
  return structuredClone({ result: entry.result as ToolResultMessage, receipt: entry.receipt as ToolReceipt })
}

export function recordTool(
  ctx: ExecContext,
  iteration: number,
  call: ToolCall,
  result: ToolResultMessage,
  receipt: ToolReceipt,
): Promise<void> | undefined {
  const exec = execs.get(ctx)
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
  return record(exec, entry)
}

/** A decision taken earlier for this call: recorded in the journal, or given to a resume. */
export function priorDecision(ctx: ExecContext, iteration: number, id: string): PriorDecision | undefined {
  const exec = execs.get(ctx)
  if (!exec) return undefined
  const key = decisionKey(exec.key, iteration, id)
  const entry = exec.tree.replay.get(key)
  if (entry) return entry.decision as PriorDecision
  return exec.tree.decisions.get(key)
}

export function recordDecision(
  ctx: ExecContext,
  iteration: number,
  id: string,
  decision: PriorDecision,
): Promise<void> | undefined {
  const exec = execs.get(ctx)
  if (!exec) return undefined
  return record(exec, { key: decisionKey(exec.key, iteration, id), kind: 'decision', decision })
}

/** Remembers where a paused call sits, so a resume's decision for it finds it again. */
export function markPaused(ctx: ExecContext, iteration: number, request: ApprovalRequest): void {
  const exec = execs.get(ctx)
  if (exec) requestKeys.set(request, decisionKey(exec.key, iteration, request.toolCallId))
}

export const pausedKey = (request: ApprovalRequest): string | undefined => requestKeys.get(request)

/** A child exec paused: its approvals wait on the tool call whose body opened it, and the pause goes up. */
export function notePausedChild(ctx: ExecContext, approvals: ApprovalRequest[]): void {
  const parent = ctx.parent && execs.get(ctx.parent)
  if (!parent || ctx.parentToolCallId === undefined) return
  const waiting = parent.paused.get(ctx.parentToolCallId) ?? []
  waiting.push(...approvals)
  parent.paused.set(ctx.parentToolCallId, waiting)
}

/** The approvals that children of this call's body paused on (the call pauses too), if any. */
export function pausedBelow(ctx: ExecContext, id: string): ApprovalRequest[] | undefined {
  const exec = execs.get(ctx)
  const waiting = exec?.paused.get(id)
  if (waiting) exec?.paused.delete(id)
  return waiting
}

/**
 * Steering or follow-up messages taken before model turn `next`: the recorded ones when this point
 * was recorded, nothing when a recorded turn follows (what waits stays queued), else what `take`
 * drains (recorded).
 */
export function takeMessages(
  ctx: ExecContext,
  next: number,
  take: () => Message[],
): { messages: Message[]; replayed: boolean; saved?: Promise<void> } {
  const exec = execs.get(ctx)
  if (!exec) return { messages: take(), replayed: false }
  if (exec.tree.replay.size > 0) {
    const recorded: Message[] = []
    for (let entry; (entry = exec.tree.replay.get(messageKey(exec.key, next, exec.messages))); exec.messages++)
      recorded.push(...structuredClone(entry.messages as Message[]))
    if (recorded.length > 0) return { messages: recorded, replayed: true }
    if (exec.tree.replay.has(modelKey(exec.key, next))) return { messages: [], replayed: false }
  }
  const messages = take()
  if (messages.length === 0) return { messages, replayed: false }
  const saved = record(exec, { key: messageKey(exec.key, next, exec.messages++), kind: 'message', messages })
  return saved ? { messages, replayed: false, saved } : { messages, replayed: false }
}
