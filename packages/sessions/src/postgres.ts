import pg from 'pg'
import { invalidOption } from '@nestor/core/integration-kit'
import type { Row, SqlDriver, SqlRunner } from './sql/driver.js'
import { sqlSessions, type ClosableSessionStore, type SqlStoreOptions } from './sql/sql-store.js'

export type PostgresSessionsOptions = SqlStoreOptions &
  (
    | { /** A pool of the app's: the store uses it and never ends it. */ pool: pg.Pool }
    | { /** The store makes a pool of its own, ended by `close()`. */ connectionString: string }
  )

/** Sessions in Postgres (`pg`): many processes and hosts share them; row locks order the writes. */
export function postgresSessions(options: PostgresSessionsOptions): ClosableSessionStore {
  const { tablePrefix, maxMessages, maxBytes, retention } = options
  let pool: pg.Pool
  let owned = false
  if ('pool' in options && options.pool) pool = options.pool
  else if ('connectionString' in options && typeof options.connectionString === 'string') {
    pool = new pg.Pool({ connectionString: options.connectionString, max: 10 })
    // An idle connection the server dropped is replaced on the next query; it must not crash the app.
    pool.on('error', () => undefined)
    owned = true
  } else throw invalidOption('pool', 'a pg Pool, or a connectionString', undefined)
  const rest = {
    ...(tablePrefix !== undefined && { tablePrefix }),
    ...(maxMessages !== undefined && { maxMessages }),
    ...(maxBytes !== undefined && { maxBytes }),
    ...(retention !== undefined && { retention }),
  }
  return sqlSessions(postgresDriver(pool, owned), rest)
}

/** `?` placeholders become `$1, $2, …` (the store's SQL has no `?` inside a literal). */
const numbered = (sql: string): string => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

const runnerOf = (client: pg.Pool | pg.PoolClient): SqlRunner => ({
  all: async (sql, params = []) => (await client.query(numbered(sql), params)).rows as Row[],
  run: async (sql, params = []) => (await client.query(numbered(sql), params)).rowCount ?? 0,
})

function postgresDriver(pool: pg.Pool, owned: boolean): SqlDriver {
  const transaction = async <T>(body: (tx: SqlRunner) => Promise<T>): Promise<T> => {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      const value = await body(runnerOf(client))
      await client.query('COMMIT')
      client.release()
      return value
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      // A connection that failed mid-transaction is not given back to the pool.
      client.release(true)
      throw error
    }
  }
  return {
    ...runnerOf(pool),
    transaction,
    migrate: (statements) =>
      transaction(async (tx) => {
        // Two processes creating the tables at once would collide in the catalog: one at a time.
        await tx.run("SELECT pg_advisory_xact_lock(hashtext('nestor_sessions_schema'))")
        for (const statement of statements) await tx.run(statement)
      }),
    close: async () => {
      if (owned) await pool.end()
    },
  }
}
