import type { Message } from './types.js'

/**
 * Where conversations are kept across execs, requests and processes (docs/sessions.md). Every
 * operation names the caller's `owner`; a session of another owner answers exactly like an
 * unknown one. `runSessionStoreConformance` (`@nestor/sessions/conformance`) checks a store.
 */
export interface SessionStore {
  /** Bounds every session of this store holds (checked before each write). */
  readonly limits?: SessionLimits
  /**
   * Takes (or renews) the one-writer lease of a session for `holder`, creating the session on
   * first use: `busy` while another holder's lease runs, `not_found` for another owner's session.
   */
  acquire(id: string, lease: SessionLease): Promise<'acquired' | 'busy' | 'not_found'>
  /** Gives the lease up (a no-op when `holder` no longer holds it). */
  release(id: string, lease: SessionLease): Promise<void>
  /**
   * The conversation an exec starts from, as stored (the runtime validates it). With `run`, the
   * messages that run wrote and everything after them are left out, so a replay starts where it did.
   */
  load(id: string, read: { owner: string; run?: string }): Promise<unknown[]>
  /**
   * Writes one turn atomically, once per `run` + `turn` (a second write of the same turn is a
   * no-op). Fails `session_busy` when `holder` lost the lease. `replace` keeps the messages it
   * replaces listable (`messages(id, { all: true })`) until retention drops them.
   */
  append(id: string, write: SessionWrite): Promise<void>
  /** The conversation (with `all`, the messages a compaction replaced too), validated; [] when unknown. */
  messages(id: string, read: { owner: string; all?: boolean }): Promise<Message[]>
  /** The owner's sessions, most recently updated first, a page at a time. */
  list(query: { owner: string; limit?: number; cursor?: string }): Promise<SessionPage>
  /** Copies the first `at` messages into a new session (`id`, or a random one); `not_found` when unknown. */
  fork(id: string, options: { owner: string; at: number; id?: string }): Promise<SessionInfo>
  /** Deletes a session; false when there was none for this owner. */
  delete(id: string, options: { owner: string }): Promise<boolean>
}

export type SessionLimits = {
  /** Messages a session may hold (a write past it fails `session_full`). */
  maxMessages?: number
  /** Bytes of JSON a session's messages may take. */
  maxBytes?: number
}

/** The options every store of ours takes. */
export type SessionStoreOptions = SessionLimits & {
  /** Sessions idle and replaced messages older than this are dropped. */
  retention?: { days: number }
}

export type SessionLease = { owner: string; holder: string; leaseMs: number }

export type SessionWrite = {
  owner: string
  holder: string
  /** The run that writes (a journaled run's id, else the exec's id) and its turn. */
  run: string
  turn: number
  messages: Message[]
  /** The messages replace the whole active conversation (a compaction). */
  replace?: boolean
}

export type SessionInfo = { id: string; owner: string; messageCount: number; createdAt: number; updatedAt: number }

export type SessionPage = { sessions: SessionInfo[]; cursor?: string }

/** `exec(input, { session })`: the conversation this exec continues and appends to. */
export type SessionOptions = {
  id: string
  owner: string
  /** Wait for the session's current writer to finish instead of failing `session_busy` (abortable by `signal`). */
  wait?: boolean
}
