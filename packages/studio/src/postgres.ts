import { NestorError, type Journal, type JournalEntry } from '@nestor/core'
import { MAX_ENTRIES, type RecordedRuns } from './recorded.js'

/** What the studio needs of a `pg` Pool (or Client): one query method. */
export type Queryable = { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }

/**
 * The runs of a Postgres journal table (`@nestor/dbos`'s `postgresJournal`, default table
 * `nestor_journal`), read only: newest first, each run's entries in append order.
 */
export function postgresJournals(pool: Queryable, options: { table?: string } = {}): RecordedRuns {
  const table = options.table ?? 'nestor_journal'
  // The name goes into SQL text: only a plain (optionally schema-qualified) identifier.
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table))
    throw new NestorError('invalid_options', `postgresJournals: table must be a plain SQL name, got ${table}`)
  return {
    async list(limit) {
      const { rows } = await pool.query(`SELECT run_id FROM ${table} GROUP BY run_id ORDER BY max(id) DESC LIMIT $1`, [
        Number.isFinite(limit) ? limit : null,
      ])
      return (rows as { run_id: string }[]).map((row) => ({ runId: row.run_id, source: `postgres:${table}` }))
    },
    async journal(runId) {
      const { rows } = await pool.query(`SELECT 1 FROM ${table} WHERE run_id = $1 LIMIT 1`, [runId])
      if (rows.length === 0) return undefined
      const journal: Journal = {
        id: `postgres:${table}`,
        async load(id) {
          // One more than is shown, so the page can say the run was cut.
          const { rows } = await pool.query(`SELECT entry FROM ${table} WHERE run_id = $1 ORDER BY id LIMIT $2`, [
            id,
            MAX_ENTRIES + 1,
          ])
          return (rows as { entry: JournalEntry }[]).map((row) => row.entry)
        },
        append() {
          return Promise.reject(
            new NestorError('invalid_options', 'the studio reads Postgres journals, never writes them'),
          )
        },
      }
      return journal
    },
  }
}
