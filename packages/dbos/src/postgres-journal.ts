import type { Pool } from 'pg'
import type { Journal, JournalEntry } from '@nestor/core'
import { tableOnce } from './tables.js'
import { throughOutages } from './outages.js'

export type PostgresJournalOptions = {
  /** Table for the entries, created on first use. Default `nestor_journal`. */
  table?: string
}

export type PostgresJournal = Journal & {
  /** Creates the table if it is missing; `load` and `append` call it once by themselves. */
  ensureTable(): Promise<void>
  /** The entries of several runs, each in append order, in one query (a leg's bookkeeping reads). */
  loadRuns(runIds: string[]): Promise<Map<string, JournalEntry[]>>
  /** Deletes every entry of these runs (the retention rule of `durable().prune`). */
  forget(runIds: string[]): Promise<void>
}

/**
 * A journal in Postgres: one row per entry, in append order, unique per (run, key) so a step that
 * a recovered process records again is stored once. `append` resolves after the insert committed,
 * which is what makes a finished model turn or tool call survive a SIGKILL right after it.
 */
export function postgresJournal(pool: Pool, options: PostgresJournalOptions = {}): PostgresJournal {
  const table = options.table ?? 'nestor_journal'
  const ensureTable = tableOnce(
    pool,
    'postgresJournal',
    table,
    (name) =>
      `CREATE TABLE IF NOT EXISTS ${name} (
       id bigserial PRIMARY KEY,
       run_id text NOT NULL,
       key text NOT NULL,
       entry jsonb NOT NULL,
       UNIQUE (run_id, key))`,
  )
  return {
    id: `postgres:${table}`,
    ensureTable,
    async load(runId) {
      await ensureTable()
      const { rows } = await throughOutages(() =>
        pool.query<{ entry: JournalEntry }>(`SELECT entry FROM ${table} WHERE run_id = $1 ORDER BY id`, [runId]),
      )
      return rows.map((row) => row.entry)
    },
    async loadRuns(runIds) {
      await ensureTable()
      const { rows } = await throughOutages(() =>
        pool.query<{ run_id: string; entry: JournalEntry }>(
          `SELECT run_id, entry FROM ${table} WHERE run_id = ANY($1::text[]) ORDER BY id`,
          [runIds],
        ),
      )
      const runs = new Map(runIds.map((runId): [string, JournalEntry[]] => [runId, []]))
      for (const row of rows) runs.get(row.run_id)?.push(row.entry)
      return runs
    },
    async append(runId, entry) {
      await ensureTable()
      // JSON text, not the object: pg would send arrays as Postgres arrays.
      // Retried through a lost connection: the insert is idempotent on (run, key).
      await throughOutages(() =>
        pool.query(
          `INSERT INTO ${table} (run_id, key, entry) VALUES ($1, $2, $3::jsonb) ON CONFLICT (run_id, key) DO NOTHING`,
          [runId, entry.key, JSON.stringify(entry)],
        ),
      )
    },
    async forget(runIds) {
      await ensureTable()
      await pool.query(`DELETE FROM ${table} WHERE run_id = ANY($1::text[])`, [runIds])
    },
  }
}
