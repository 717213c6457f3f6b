import type { Pool } from 'pg'

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/

/**
 * Runs a table's `CREATE TABLE IF NOT EXISTS` once per process. IF NOT EXISTS is not safe against
 * a concurrent CREATE: the loser fails on Postgres's catalog (a duplicate type or key) once the
 * winner committed, and the table is there then. A real failure is retried on the next call.
 * `ddl(table)` gets the name once it is known to be a plain identifier (it is spliced into SQL).
 */
export function tableOnce(
  pool: Pool,
  owner: string,
  table: string,
  ddl: (table: string) => string,
): () => Promise<void> {
  if (!TABLE_NAME.test(table)) throw new TypeError(`${owner}: invalid table name ${JSON.stringify(table)}`)
  let created: Promise<void> | undefined
  return () => {
    created ??= pool.query(ddl(table)).then(
      () => undefined,
      async (error: unknown) => {
        const found = await pool.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [table]).then(
          ({ rows }) => rows[0]?.found,
          () => null,
        )
        if (found) return
        created = undefined
        throw error
      },
    )
    return created
  }
}
