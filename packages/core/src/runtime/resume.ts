import { NestorError } from '../contract/errors.js'
import type { ExecOptions } from '../contract/exec-types.js'
import type { Journal } from '../contract/journal.js'
import type { RunState } from '../contract/run-state-schema.js'
import type { AssistantMessage, ResumeDecisions, Tool } from '../contract/types.js'
import type { TreeState } from '../exec/context.js'
import { restoredState, type ExecState, type PriorDecision } from '../state/exec-state.js'
import { stateExpiry, stateIdOf, verifyState } from '../state/run-state.js'
import { treeJournal, type TreeJournal } from '../state/tree-journal.js'
import { answersFor } from './resume-answers.js'

/** A RunState checked for a resume: what the resumed exec opens with and continues from. */
export type Resumption = {
  execId: string
  stateId: string
  expiresAt: number
  tools: Map<string, Tool>
  options: ExecOptions
  state: ExecState
  journal: TreeJournal
  /** The paused assistant message and its calls still without a result. */
  message: AssistantMessage
  remaining: string[]
  tree: RunState['tree']
}

/**
 * Checks a RunState and the decisions for it, in the order a refusal should be found: the state
 * itself (shape, signature, expiry), its journal, its tools, then each decision. Throws
 * `invalid_state` and changes nothing when any is wrong; the caller's state is never touched.
 */
export function prepareResume(
  given: RunState,
  decisions: ResumeDecisions,
  options: Pick<ExecOptions, 'tools' | 'signal' | 'journal' | 'ask'>,
  runtime: { stateSecret: string | undefined; tools: () => Map<string, Tool> },
): Resumption {
  const { state: checked, message } = verifyState(given, runtime.stateSecret)
  const expiresAt = stateExpiry(checked)
  const journal = resumeJournal(checked, options.journal)
  const available = runtime.tools()
  const tools = new Map<string, Tool>()
  for (const name of checked.toolNames) {
    const tool = available.get(name)
    if (!tool)
      throw new NestorError('invalid_state', `invalid RunState: it names tool ${name}, which this runtime lacks`)
    tools.set(name, tool)
  }
  // verifyState returned a deep copy: the exec may grow it, the caller's state stays as given.
  const state = restoredState(checked)
  for (const [id, decision] of decisionsFor(checked, decisions, journal)) state.decisions.set(id, decision)
  for (const [key, answer] of answersFor(checked, decisions)) journal.answers.set(key, answer)

  const execOptions: ExecOptions = { model: checked.model }
  if (checked.system !== undefined) execOptions.system = checked.system
  if (checked.parallelToolCalls !== undefined) execOptions.parallelToolCalls = checked.parallelToolCalls
  if (checked.stopAtTools) execOptions.stopAtTools = checked.stopAtTools
  if (checked.owner !== undefined) execOptions.owner = checked.owner
  if (options.signal) execOptions.signal = options.signal
  if (options.ask) execOptions.ask = options.ask
  return {
    execId: checked.execId,
    stateId: stateIdOf(checked),
    expiresAt,
    tools,
    options: execOptions,
    state,
    journal,
    message,
    remaining: checked.remaining,
    tree: checked.tree,
  }
}

/**
 * The decisions for this exec's own waiting calls. Those for calls waiting below the root go to
 * the tree journal by key, where the resumed child finds them when it replays.
 */
function decisionsFor(state: RunState, given: ResumeDecisions, journal: TreeJournal): Map<string, PriorDecision> {
  const own = new Set(state.remaining)
  const below = new Map((state.journal?.waiting ?? []).map((w) => [w.toolCallId, w.key]))
  const decided = new Map<string, PriorDecision>()
  const decide = (id: string, decision: PriorDecision) => {
    if (!own.has(id) && !below.has(id))
      throw new NestorError('invalid_state', `invalid decision: tool call ${id} is not waiting in this state`)
    // Approve and reject (or two edits) for one call is ambiguous: refuse rather than guess.
    if (decided.has(id))
      throw new NestorError('invalid_state', `invalid decision: tool call ${id} is decided more than once`)
    decided.set(id, decision)
    const key = below.get(id)
    if (key !== undefined) journal.decisions.set(key, decision)
  }
  // JSON from a person's client: each part is checked, and a part that is not a decision refuses
  // the whole resume (nothing is approved by a value that merely looks truthy).
  const { approve, edit, reject } = decisionLists(given)
  for (const id of approve) decide(idOf(id, 'approve'), { approved: true })
  for (const item of edit) {
    const args = item?.args
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw invalidDecision(`edit of call ${String(item?.toolCallId)} needs args: an object of arguments`)
    decide(idOf(item.toolCallId, 'edit'), { approved: true, args })
  }
  for (const item of reject) {
    const reason: unknown = item?.reason
    if (reason !== undefined && typeof reason !== 'string')
      throw invalidDecision(`the reason for rejecting call ${String(item?.toolCallId)} must be a string`)
    decide(idOf(item?.toolCallId, 'reject'), { approved: false, reason: reason ?? 'rejected' })
  }
  for (const id of decided.keys()) if (!own.has(id)) decided.delete(id)
  return decided
}

const invalidDecision = (why: string) => new NestorError('invalid_state', `invalid decision: ${why}`)

/** The three lists of a ResumeDecisions, each an array when given. */
function decisionLists(given: unknown): Required<Omit<ResumeDecisions, 'answers'>> {
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw invalidDecision('expected { approve?, edit?, reject? }')
  const lists = given as ResumeDecisions
  for (const field of ['approve', 'edit', 'reject'] as const)
    if (lists[field] !== undefined && !Array.isArray(lists[field])) throw invalidDecision(`${field} must be an array`)
  return { approve: lists.approve ?? [], edit: lists.edit ?? [], reject: lists.reject ?? [] }
}

function idOf(id: unknown, field: string): string {
  if (typeof id !== 'string' || id === '') throw invalidDecision(`${field} holds an entry without a tool call id`)
  return id
}

/**
 * The tree journal a resume continues: the state's entries, or (for an external journal, which the
 * state names by id) the same journal given again.
 */
function resumeJournal(state: RunState, given: Journal | undefined): TreeJournal {
  const field = state.journal
  if (!field) return treeJournal(state.execId, given)
  if (field.id !== undefined && given?.id !== field.id)
    throw new NestorError(
      'invalid_state',
      `invalid RunState: its steps are in journal ${field.id}; pass that journal as resume(state, decisions, { journal })`,
    )
  return treeJournal(field.runId, given, field.entries)
}

/** A resumed root takes back the tree's counters: budgets count across the pause. */
export function restoreTree(tree: TreeState, stored: RunState['tree']): void {
  tree.iterations = stored.iterations
  tree.tokens = stored.tokens
  tree.costUsd = stored.costUsd ?? 0
  tree.toolCalls = stored.toolCalls ?? 0
  tree.startedAt = Date.now() - stored.elapsedMs
}
