import { NestorError, type Message, type SessionInfo, type SessionStore, type SessionStoreOptions } from '@nestor/core'
import {
  checkForkCut,
  checkKey,
  checkStoredMessages,
  generateId,
  pageSize,
  parseStoredRow,
  retentionMs,
  storeLimits,
} from '@nestor/core/integration-kit'
import { num, type Row, type SqlDriver, type SqlRunner } from './driver.js'
import { checkPrefix, schema } from './schema.js'

export type SqlStoreOptions = SessionStoreOptions & {
  /** Prefix of the store's three tables (default `nestor_`). */
  tablePrefix?: string
}

/** A session store that can also be closed (it holds a database connection). */
export type ClosableSessionStore = SessionStore & { close(): Promise<void> }

/**
 * A session store on any SQL database the driver speaks (SQLite, Postgres): every operation is a
 * few indexed statements; the lease and a write are each atomic, so two processes never both
 * write a session and a write is whole or absent.
 */
export function sqlSessions(driver: SqlDriver, options: SqlStoreOptions = {}): ClosableSessionStore {
  const p = checkPrefix(options.tablePrefix ?? 'nestor_')
  const [S, M, W] = [`${p}sessions`, `${p}session_messages`, `${p}session_writes`]
  const keepMs = retentionMs(options)
  let ready: Promise<void> | undefined
  /** Tables are made on first use, so making a store never touches the database. */
  const db = async (): Promise<SqlDriver> => {
    // A failed migration (the database was down) is tried again by the next call.
    ready ??= driver.migrate(schema(p)).catch((error: unknown) => {
      ready = undefined
      throw error
    })
    await ready
    return driver
  }
  const cutoff = () => (Number.isFinite(keepMs) ? Date.now() - keepMs : -1)

  /** Retention, for one session: gone when idle past it (and not leased), replaced messages past it dropped. */
  const expire = async (tx: SqlRunner, id: string, now: number) => {
    if (!Number.isFinite(keepMs)) return
    const old = now - keepMs
    const dropped = await tx.run(
      `DELETE FROM ${S} WHERE id = ? AND updated_at < ? AND (lease_until IS NULL OR lease_until < ?)`,
      [id, old, now],
    )
    if (dropped > 0) await dropRows(tx, id)
    else await tx.run(`DELETE FROM ${M} WHERE session_id = ? AND replaced_at < ?`, [id, old])
  }
  const dropRows = async (tx: SqlRunner, id: string) => {
    await tx.run(`DELETE FROM ${M} WHERE session_id = ?`, [id])
    await tx.run(`DELETE FROM ${W} WHERE session_id = ?`, [id])
  }
  /** The session's rows when `owner` owns it (else none: another owner's reads like an unknown one). */
  const rows = async (tx: SqlRunner, id: string, owner: string, all = false): Promise<Row[]> =>
    tx.all(
      `SELECT m.body, m.run FROM ${M} m JOIN ${S} s ON s.id = m.session_id
       WHERE s.id = ? AND s.owner = ? AND s.updated_at >= ? ${all ? 'AND (m.replaced_at IS NULL OR m.replaced_at >= ?)' : 'AND m.replaced_at IS NULL'}
       ORDER BY m.seq`,
      all ? [id, owner, cutoff(), cutoff()] : [id, owner, cutoff()],
    )
  const parse = (id: string, list: Row[]): unknown[] => list.map((r) => parseStoredRow(id, String(r.body)))
  const insert = async (tx: SqlRunner, id: string, run: string, messages: readonly Message[], from: number) => {
    if (messages.length === 0) return
    const values = messages.map(() => '(?, ?, ?, ?)').join(', ')
    const params = messages.flatMap((m, i) => [id, from + i, run, JSON.stringify(m)])
    await tx.run(`INSERT INTO ${M} (session_id, seq, run, body) VALUES ${values}`, params)
  }
  const info = (r: Row): SessionInfo => ({
    id: String(r.id),
    owner: String(r.owner),
    messageCount: num(r.n),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  })

  return {
    ...storeLimits(options),
    async acquire(id, { owner, holder, leaseMs }) {
      checkKey('id', id)
      checkKey('owner', owner)
      return (await db()).transaction(async (tx) => {
        const now = Date.now()
        await expire(tx, id, now)
        await tx.run(
          `INSERT INTO ${S} (id, owner, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
          [id, owner, now, now],
        )
        const took = await tx.run(
          `UPDATE ${S} SET holder = ?, lease_until = ? WHERE id = ? AND owner = ?
           AND (holder IS NULL OR holder = ? OR lease_until < ?)`,
          [holder, now + leaseMs, id, owner, holder, now],
        )
        if (took > 0) return 'acquired'
        const found = await tx.all(`SELECT owner FROM ${S} WHERE id = ?`, [id])
        return found[0]?.owner === owner ? 'busy' : 'not_found'
      })
    },
    async release(id, { owner, holder }) {
      await (
        await db()
      ).run(`UPDATE ${S} SET holder = NULL, lease_until = NULL WHERE id = ? AND owner = ? AND holder = ?`, [
        id,
        owner,
        holder,
      ])
    },
    async load(id, { owner, run }) {
      const list = await rows(await db(), id, owner)
      const cut = run === undefined ? -1 : list.findIndex((r) => r.run === run)
      return parse(id, cut >= 0 ? list.slice(0, cut) : list)
    },
    async append(id, { owner, holder, run, turn, messages, replace }) {
      await (
        await db()
      ).transaction(async (tx) => {
        const now = Date.now()
        // The lease is checked in the write itself: a writer that lost it writes nothing.
        const held = await tx.run(
          `UPDATE ${S} SET updated_at = ? WHERE id = ? AND owner = ? AND holder = ? AND lease_until >= ?`,
          [now, id, owner, holder, now],
        )
        if (held === 0)
          throw new NestorError('session_busy', `session ${id} is no longer held by this exec (its lease ran out)`)
        const fresh = await tx.run(`INSERT INTO ${W} (session_id, write_key) VALUES (?, ?) ON CONFLICT DO NOTHING`, [
          id,
          `${run}:${turn}`,
        ])
        if (fresh === 0) return
        if (replace)
          await tx.run(`UPDATE ${M} SET replaced_at = ? WHERE session_id = ? AND replaced_at IS NULL`, [now, id])
        const next = await tx.all(`SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM ${M} WHERE session_id = ?`, [id])
        await insert(tx, id, run, messages, num(next[0]?.n ?? 0))
      })
    },
    async messages(id, { owner, all }) {
      return checkStoredMessages(id, parse(id, await rows(await db(), id, owner, all === true)))
    },
    async list({ owner, limit, cursor }) {
      const size = pageSize(limit)
      const after = cursor === undefined ? undefined : parseCursor(cursor)
      const found = await (
        await db()
      ).all(
        `SELECT s.id, s.owner, s.created_at, s.updated_at,
           (SELECT COUNT(*) FROM ${M} m WHERE m.session_id = s.id AND m.replaced_at IS NULL) AS n
         FROM ${S} s WHERE s.owner = ? AND s.updated_at >= ?
         ${after ? 'AND (s.updated_at < ? OR (s.updated_at = ? AND s.id > ?))' : ''}
         ORDER BY s.updated_at DESC, s.id ASC LIMIT ?`,
        after ? [owner, cutoff(), after.at, after.at, after.id, size + 1] : [owner, cutoff(), size + 1],
      )
      const page = found.slice(0, size).map(info)
      const last = page[page.length - 1]
      return found.length > size && last
        ? { sessions: page, cursor: `${last.updatedAt}:${last.id}` }
        : { sessions: page }
    },
    async fork(id, { owner, at, id: newId }) {
      const target = checkKey('id', newId ?? generateId('session'))
      return (await db()).transaction(async (tx) => {
        const source = await rows(tx, id, owner)
        if (
          source.length === 0 &&
          (await tx.all(`SELECT 1 AS x FROM ${S} WHERE id = ? AND owner = ?`, [id, owner])).length === 0
        )
          throw new NestorError('not_found', `no session ${id}`)
        const kept = checkForkCut(id, checkStoredMessages(id, parse(id, source)), at)
        const now = Date.now()
        const made = await tx.run(
          `INSERT INTO ${S} (id, owner, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
          [target, owner, now, now],
        )
        if (made === 0) throw new NestorError('invalid_options', `invalid option id: session ${target} exists`)
        await insert(tx, target, 'fork', kept, 0)
        return { id: target, owner, messageCount: kept.length, createdAt: now, updatedAt: now }
      })
    },
    async delete(id, { owner }) {
      return (await db()).transaction(async (tx) => {
        const gone = await tx.run(`DELETE FROM ${S} WHERE id = ? AND owner = ?`, [id, owner])
        if (gone > 0) await dropRows(tx, id)
        return gone > 0
      })
    },
    close: () => driver.close(),
  }
}

function parseCursor(cursor: string): { at: number; id: string } {
  const colon = cursor.indexOf(':')
  const at = Number(cursor.slice(0, colon))
  if (colon < 0 || !Number.isFinite(at))
    throw new NestorError('invalid_options', 'invalid option cursor: not a cursor list() gave')
  return { at, id: cursor.slice(colon + 1) }
}
