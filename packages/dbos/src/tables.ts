import type { Pool } from 'pg'

export const TABLE_NAME = /^[a-z_][a-z0-9_]*$/

/**
 * Runs a table's `CREATE TABLE IF NOT EXISTS` once per process. IF NOT EXISTS is not safe against
 * a concurrent CREATE: the loser fails on Postgres's catalog (a duplicate type or key) once the
 * winner committed, and the table is there then. A real failure is retried on the next call.
 */
export function tableOnce(pool: Pool, table: string, ddl: string): () => Promise<void> {
  let created: Promise<void> | undefined
  return () => {
    created ??= pool.query(ddl).then(
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
