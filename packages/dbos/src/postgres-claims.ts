import type { Pool } from 'pg'
import { tableOnce } from './tables.js'

export type PostgresClaimsOptions = {
  /** Table for the claims, created on first use. Default `nestor_state_claims`. */
  table?: string
}

/** A `claimState` hook for `new Runtime({ claimState })`, plus its table's setup. */
export type PostgresClaims = ((stateId: string, claim: { expiresAt: number }) => Promise<boolean>) & {
  ensureTable(): Promise<void>
}

/**
 * Claims paused states in Postgres, so a state is spent once across every process that shares the
 * database: the first insert of a state id wins. A claim is kept until its state expires (a state
 * with no expiry keeps it forever); each claim first deletes the claims that have expired.
 */
export function postgresClaims(pool: Pool, options: PostgresClaimsOptions = {}): PostgresClaims {
  const table = options.table ?? 'nestor_state_claims'
  const ensureTable = tableOnce(
    pool,
    'postgresClaims',
    table,
    (name) =>
      `CREATE TABLE IF NOT EXISTS ${name} (
       state_id text PRIMARY KEY,
       expires_at timestamptz,
       claimed_at timestamptz NOT NULL DEFAULT now());
     CREATE INDEX IF NOT EXISTS ${name}_expires_at ON ${name} (expires_at)`,
  )
  const claim = async (stateId: string, { expiresAt }: { expiresAt: number }): Promise<boolean> => {
    await ensureTable()
    // Two statements, not one: an insert cannot see a delete of the same statement's snapshot.
    await pool.query(`DELETE FROM ${table} WHERE expires_at <= now()`)
    const { rowCount } = await pool.query(
      `INSERT INTO ${table} (state_id, expires_at) VALUES ($1, to_timestamp($2::double precision / 1000))
       ON CONFLICT (state_id) DO NOTHING`,
      [stateId, Number.isFinite(expiresAt) ? expiresAt : null],
    )
    return rowCount === 1
  }
  return Object.assign(claim, { ensureTable })
}
