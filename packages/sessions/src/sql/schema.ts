import { invalidOption } from '@nestor/core/integration-kit'

/**
 * The tables of a SQL session store, one text per statement, the same for SQLite and Postgres.
 * `sessions` holds the owner and the writer's lease; `session_messages` each message as JSON in
 * order (`replaced_at` set when a compaction replaced it); `session_writes` the run + turn of
 * every write applied, so a replayed write is a no-op.
 */
export function schema(prefix: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${prefix}sessions (
      id TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      holder TEXT,
      lease_until BIGINT
    )`,
    `CREATE INDEX IF NOT EXISTS ${prefix}sessions_by_owner ON ${prefix}sessions (owner, updated_at DESC, id)`,
    `CREATE TABLE IF NOT EXISTS ${prefix}session_messages (
      session_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      run TEXT NOT NULL,
      body TEXT NOT NULL,
      replaced_at BIGINT,
      PRIMARY KEY (session_id, seq)
    )`,
    `CREATE TABLE IF NOT EXISTS ${prefix}session_writes (
      session_id TEXT NOT NULL,
      write_key TEXT NOT NULL,
      PRIMARY KEY (session_id, write_key)
    )`,
  ]
}

/** Table prefixes are spliced into SQL: letters, digits and underscores only. */
export function checkPrefix(prefix: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(prefix))
    throw invalidOption('tablePrefix', 'letters, digits and underscores (at most 41)', prefix)
  return prefix
}
