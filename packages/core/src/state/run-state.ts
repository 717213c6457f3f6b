import { hmacSha256Hex, randomUUID, sameDigest, sha256Hex } from '../platform/node.js'
import { canonicalJson } from '../base/canonical.js'
import { NestorError } from '../contract/errors.js'
import { RUN_STATE_VERSION, stateSchemas, type RunState } from '../contract/run-state-schema.js'
import type { ApprovalRequest, AssistantMessage, Message } from '../contract/types.js'
import { storedState, type ExecState } from './exec-state.js'
import { entriesToStore, type TreeJournal } from './tree-journal.js'

export { RUN_STATE_VERSION }

/** What a paused exec hands over to become a RunState. */
export type Pause = {
  execId: string
  model: string
  toolNames: string[]
  system?: string
  parallelToolCalls?: boolean
  stopAtTools?: string[]
  owner?: string
  state: ExecState
  /** Calls waiting for a decision, this exec's and those of its paused children. */
  pending: ApprovalRequest[]
  /** Ids of this exec's calls still without a result, in the model's order. */
  remaining: string[]
  tree: RunState['tree']
  /** The tree's journal, for a root exec (a child's pause is stored by its root). */
  journal?: TreeJournal
  /** How long the state stays resumable (stateMaxAgeMs) and the secret that signs it. */
  maxAgeMs?: number
  secret?: string
}

/** Everything a paused exec needs to continue, as plain JSON (a deep copy, safe to store). */
export function toRunState(pause: Pause): RunState {
  const state: RunState = {
    version: RUN_STATE_VERSION,
    // Random, not a counter: a claim store shared by many processes must never see two alike.
    stateId: randomUUID(),
    execId: pause.execId,
    model: pause.model,
    toolNames: pause.toolNames,
    ...storedState(pause.state, pause.remaining),
    pending: pause.pending,
    remaining: pause.remaining,
    tree: pause.tree,
  }
  const maxAgeMs = pause.maxAgeMs ?? DEFAULT_STATE_MAX_AGE_MS
  if (Number.isFinite(maxAgeMs)) state.expiresAt = Date.now() + maxAgeMs
  if (pause.system !== undefined) state.system = pause.system
  if (pause.parallelToolCalls !== undefined) state.parallelToolCalls = pause.parallelToolCalls
  if (pause.stopAtTools) state.stopAtTools = pause.stopAtTools
  if (pause.owner !== undefined) state.owner = pause.owner
  const journal = journalField(pause)
  if (journal) state.journal = journal
  const plain = JSON.parse(JSON.stringify(state)) as RunState
  // Signed here, before any event carries the state, so agent_end shows the same signed state.
  return pause.secret === undefined ? plain : { ...plain, signature: hmac(plain, pause.secret) }
}

/**
 * What a root's state keeps of the tree journal: needed when a call below the root waits (the
 * resume replays its exec from the entries) or when the run has a journal of its own.
 */
function journalField({ journal: tree, pending, execId }: Pause): RunState['journal'] {
  if (!tree) return undefined
  const nested = pending.some((request) => request.execId !== execId)
  if (!nested && !tree.journal) return undefined
  const waiting = pending.flatMap((request) => {
    const key = tree.waiting.get(request)
    return key === undefined ? [] : [{ toolCallId: request.toolCallId, key }]
  })
  const id = tree.journal?.id
  return id === undefined
    ? { runId: tree.runId, entries: entriesToStore(tree), waiting }
    : { runId: tree.runId, id, waiting }
}

function hmac(state: RunState, secret: string): string {
  const { signature: _omit, ...body } = state
  return hmacSha256Hex(secret, canonicalJson(body))
}

const invalid = (why: string) => new NestorError('invalid_state', `invalid RunState: ${why}`)

/**
 * Checks a state before resuming: version, shape (the whole schema; the first bad field is named
 * by its path), signature (with a secret), and that the paused message's calls are still there.
 * Throws `invalid_state`, never anything else. Returns a deep copy: the caller's object is never
 * touched, however the resumed exec goes on.
 */
export function verifyState(
  value: unknown,
  secret: string | undefined,
): { state: RunState; message: AssistantMessage } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('expected an object')
  const version = (value as { version?: unknown }).version
  if (version !== RUN_STATE_VERSION) {
    throw invalid(`unknown version ${describe(version)}; this runtime reads version ${RUN_STATE_VERSION}`)
  }
  const parsed = stateSchemas().runStateSchema.safeParse(value)
  if (!parsed.success) throw invalid(firstIssue(parsed.error.issues))
  const signature = (value as { signature?: unknown }).signature
  // A signature nobody checks would read as a guarantee: refuse it rather than resume unverified.
  if (secret === undefined && signature !== undefined)
    throw invalid('it is signed, and this runtime has no stateSecret to check the signature with')
  if (secret !== undefined) {
    if (typeof signature !== 'string') throw invalid('it is not signed, and this runtime has a stateSecret')
    // Over the value as given, not the parsed copy: an added field is tampering too.
    if (!sameDigest(signature, hmac(value as RunState, secret)))
      throw invalid('signature does not match: the state was tampered with or signed with another secret')
  }
  const state = copyOf(parsed.data)
  if (state.startIndex > state.history.length)
    throw invalid(`field startIndex: ${state.startIndex} is past the end of history (${state.history.length} messages)`)
  const index = lastAssistantIndex(state.history)
  if (index < 0) throw invalid('history holds no assistant message to continue from')
  const message = state.history[index] as AssistantMessage
  const ids = new Set(message.content.flatMap((c) => (c.type === 'toolCall' ? [c.id] : [])))
  for (const id of state.remaining)
    if (!ids.has(id)) throw invalid(`remaining call ${id} is not in the paused assistant message`)
  return { state, message }
}

function copyOf(state: RunState): RunState {
  try {
    return structuredClone(state)
  } catch (error) {
    throw invalid(`it holds a value that cannot be copied (${error instanceof Error ? error.message : String(error)})`)
  }
}

/** The first schema issue as "field a.b.0.c: what was wrong". */
function firstIssue(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const issue = issues[0]
  if (!issue) return 'it does not match the RunState schema'
  const path = issue.path.map(String).join('.')
  return path ? `field ${path}: ${issue.message}` : issue.message
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return typeof value
  }
}

/** How long a paused state can be resumed unless the runtime says otherwise: a week. */
const DEFAULT_STATE_MAX_AGE_MS = 7 * 24 * 3600 * 1000

/** When a state stops being resumable (Infinity: never). Throws `invalid_state` once it has. */
export function stateExpiry(state: RunState): number {
  const expiresAt = state.expiresAt ?? Infinity
  if (expiresAt <= Date.now())
    throw invalid(`it expired at ${instant(expiresAt)} (the runtime that made it has stateMaxAgeMs)`)
  return expiresAt
}

/** A time as ISO text; a number past what a Date holds (a forged state) as the number. */
function instant(ms: number): string {
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString()
}

/** The id a resume claims: the state's own, or (for states made by hand) a hash of its content. */
export function stateIdOf(state: RunState): string {
  if (state.stateId !== undefined) return state.stateId
  const { signature: _omit, ...body } = state
  return `sha256:${sha256Hex(canonicalJson(body))}`
}

function lastAssistantIndex(history: Message[]): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]?.role === 'assistant') return i
  return -1
}
