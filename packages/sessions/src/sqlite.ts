import { createClient, type Client, type InValue } from '@libsql/client'
import { invalidOption } from '@nestor/core/integration-kit'
import type { Row, SqlDriver, SqlRunner } from './sql/driver.js'
import { sqlSessions, type ClosableSessionStore, type SqlStoreOptions } from './sql/sql-store.js'

export type SqliteSessionsOptions = SqlStoreOptions & {
  /** A database file (made when missing), or `':memory:'`. */
  path: string
  /** How long a statement waits for another process's write to finish before failing. Default 5000 ms. */
  busyTimeoutMs?: number
}

/**
 * Sessions in a SQLite file: the embedded default. Runs on `@libsql/client`, whose SQLite ships
 * as a prebuilt binary inside an npm package (no compiler, no download at install: docs/design.md).
 * Several processes may share the file: SQLite's own file locks order their writes.
 */
export function sqliteSessions(options: SqliteSessionsOptions): ClosableSessionStore {
  const { path, busyTimeoutMs = 5000, ...rest } = options
  if (typeof path !== 'string' || path === '') throw invalidOption('path', "a file path or ':memory:'", path)
  const url = path === ':memory:' ? ':memory:' : `file:${path}`
  const timeout = Math.max(0, Math.floor(busyTimeoutMs))
  // One connection: this process's calls are ordered here; other processes wait on the file's locks.
  const client = createClient({ url, concurrency: 1, timeout })
  return sqlSessions(sqliteDriver(client, timeout, path !== ':memory:'), rest)
}

/**
 * One connection, one call at a time: calls are queued here, so a transaction (BEGIN IMMEDIATE,
 * which takes the file's write lock at once) never waits on a call of its own process.
 */
function sqliteDriver(client: Client, busyTimeoutMs: number, onDisk: boolean): SqlDriver {
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }
  const runner: SqlRunner = {
    all: async (sql, params = []) => (await client.execute({ sql, args: params as InValue[] })).rows as Row[],
    run: async (sql, params = []) => (await client.execute({ sql, args: params as InValue[] })).rowsAffected,
  }
  let opened: Promise<void> | undefined
  const open = () =>
    (opened ??= whileBusy(busyTimeoutMs, async () => {
      await client.execute(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`)
      // WAL: readers in other processes do not wait for a writer.
      if (onDisk) await client.execute('PRAGMA journal_mode = WAL')
    }))
  const transaction = <T>(body: (tx: SqlRunner) => Promise<T>): Promise<T> =>
    // A transaction refused as busy was rolled back whole: running it again from the start is safe.
    whileBusy(busyTimeoutMs, () => attempt(body))
  const attempt = async <T>(body: (tx: SqlRunner) => Promise<T>): Promise<T> => {
    await open()
    const tx = await client.transaction('write')
    try {
      const value = await body({
        all: async (sql, params = []) => (await tx.execute({ sql, args: params as InValue[] })).rows as Row[],
        run: async (sql, params = []) => (await tx.execute({ sql, args: params as InValue[] })).rowsAffected,
      })
      await tx.commit()
      return value
    } finally {
      // After a commit this does nothing; after a throw it rolls back.
      tx.close()
    }
  }
  return {
    all: (sql, params) => serial(async () => (await open(), runner.all(sql, params))),
    run: (sql, params) => serial(async () => (await open(), runner.run(sql, params))),
    transaction: (body) => serial(() => transaction(body)),
    migrate: (statements) =>
      serial(() =>
        transaction(async (tx) => {
          for (const statement of statements) await tx.run(statement)
        }),
      ),
    close: () => serial(async () => client.close()),
  }
}

/**
 * SQLite answers some lock conflicts at once instead of through busy_timeout (two processes
 * switching a new file to WAL together, a WAL recovery): those are tried again, backing off,
 * until the same timeout has passed.
 */
async function whileBusy<T>(timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const until = Date.now() + timeoutMs
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await work()
    } catch (error) {
      if (!isBusy(error) || Date.now() >= until) throw error
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }
}

const isBusy = (error: unknown): boolean =>
  error instanceof Error &&
  (/^SQLITE_BUSY/.test(String((error as { code?: unknown }).code)) || /database is locked/i.test(error.message))
