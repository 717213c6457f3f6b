import { generateId } from '../base/ids.js'
import { NestorError } from '../contract/errors.js'
import type { SessionInfo, SessionStore, SessionStoreOptions } from '../contract/session-types.js'
import type { Message } from '../contract/types.js'
import {
  checkForkCut,
  checkKey,
  checkStoredMessages,
  pageSize,
  parseStoredRow,
  retentionMs,
  storeLimits,
} from './stored.js'

type Row = { json: string; run: string; replacedAt?: number }
type Session = {
  owner: string
  createdAt: number
  updatedAt: number
  rows: Row[]
  /** `run:turn` of every write applied (a replayed write is a no-op). */
  writes: Set<string>
  lease?: { holder: string; until: number }
}

/**
 * Sessions in this process's memory: for tests, and for one process that may forget on restart.
 * Rows are kept as JSON, like the stores on disk, so what is read is a copy and is checked.
 */
export function memorySessions(options: SessionStoreOptions = {}): SessionStore {
  const sessions = new Map<string, Session>()
  const keepMs = retentionMs(options)

  /** The owner's live session, or undefined (another owner's is unknown too); drops what retention ended. */
  const find = (id: string, owner: string): Session | undefined => {
    const session = sessions.get(id)
    if (!session) return undefined
    const cutoff = Date.now() - keepMs
    if (session.updatedAt < cutoff && !leased(session)) {
      sessions.delete(id)
      return undefined
    }
    session.rows = session.rows.filter((r) => r.replacedAt === undefined || r.replacedAt >= cutoff)
    return session.owner === owner ? session : undefined
  }
  const leased = (s: Session) => s.lease !== undefined && s.lease.until > Date.now()
  const active = (s: Session) => s.rows.filter((r) => r.replacedAt === undefined)
  const read = (id: string, rows: Row[]): Message[] =>
    checkStoredMessages(
      id,
      rows.map((r) => parseStoredRow(id, r.json)),
    )
  const info = (id: string, s: Session): SessionInfo => ({
    id,
    owner: s.owner,
    messageCount: active(s).length,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  })

  return {
    ...storeLimits(options),
    async acquire(id, { owner, holder, leaseMs }) {
      checkKey('id', id)
      checkKey('owner', owner)
      let session = find(id, owner)
      if (!session) {
        if (sessions.has(id)) return 'not_found'
        const now = Date.now()
        session = { owner, createdAt: now, updatedAt: now, rows: [], writes: new Set() }
        sessions.set(id, session)
      }
      if (leased(session) && session.lease?.holder !== holder) return 'busy'
      session.lease = { holder, until: Date.now() + leaseMs }
      return 'acquired'
    },
    async release(id, { owner, holder }) {
      const session = find(id, owner)
      if (session?.lease?.holder === holder) delete session.lease
    },
    async load(id, { owner, run }) {
      const session = find(id, owner)
      if (!session) return []
      let rows = active(session)
      const cut = run === undefined ? -1 : rows.findIndex((r) => r.run === run)
      if (cut >= 0) rows = rows.slice(0, cut)
      return rows.map((r) => parseStoredRow(id, r.json))
    },
    async append(id, { owner, holder, run, turn, messages, replace }) {
      const session = find(id, owner)
      if (!session || !leased(session) || session.lease?.holder !== holder)
        throw new NestorError('session_busy', `session ${id} is no longer held by this exec (its lease ran out)`)
      const key = `${run}:${turn}`
      if (session.writes.has(key)) return
      const now = Date.now()
      if (replace) for (const row of session.rows) row.replacedAt ??= now
      for (const message of messages) session.rows.push({ json: JSON.stringify(message), run })
      session.writes.add(key)
      session.updatedAt = now
    },
    async messages(id, { owner, all }) {
      const session = find(id, owner)
      if (!session) return []
      return read(id, all ? session.rows : active(session))
    },
    async list({ owner, limit, cursor }) {
      const size = pageSize(limit)
      const mine: SessionInfo[] = []
      for (const id of [...sessions.keys()]) {
        const session = find(id, owner)
        if (session) mine.push(info(id, session))
      }
      mine.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1))
      const rest = cursor === undefined ? mine : mine.filter((s) => afterCursor(s, cursor))
      const page = rest.slice(0, size)
      const last = page[page.length - 1]
      return rest.length > size && last ? { sessions: page, cursor: cursorOf(last) } : { sessions: page }
    },
    async fork(id, { owner, at, id: newId }) {
      const session = find(id, owner)
      if (!session) throw new NestorError('not_found', `no session ${id}`)
      const kept = checkForkCut(id, read(id, active(session)), at)
      const target = newId ?? generateId('session')
      checkKey('id', target)
      if (sessions.has(target)) throw new NestorError('invalid_options', `invalid option id: session ${target} exists`)
      const now = Date.now()
      const rows = kept.map((m) => ({ json: JSON.stringify(m), run: 'fork' }))
      const copy: Session = { owner, createdAt: now, updatedAt: now, rows, writes: new Set() }
      sessions.set(target, copy)
      return info(target, copy)
    },
    async delete(id, { owner }) {
      if (!find(id, owner)) return false
      sessions.delete(id)
      return true
    },
  }
}

const cursorOf = (s: SessionInfo): string => `${s.updatedAt}:${s.id}`

/** Newest first, then by id: a session comes after the cursor when it is older, or as old with a later id. */
function afterCursor(s: SessionInfo, cursor: string): boolean {
  const colon = cursor.indexOf(':')
  const at = Number(cursor.slice(0, colon))
  const id = cursor.slice(colon + 1)
  if (colon < 0 || !Number.isFinite(at))
    throw new NestorError('invalid_options', 'invalid option cursor: not a cursor list() gave')
  return s.updatedAt < at || (s.updatedAt === at && s.id > id)
}
