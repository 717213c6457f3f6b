import { NestorError } from '@nestor/core'
import type { Pool } from 'pg'
import { pgPool } from './peer.js'
import { dbosExecutorModule } from '#peers'

type Executor = { DBOSExecutor?: { globalInstance?: { config?: { systemDatabaseUrl?: unknown } } } }

/**
 * The system database DBOS launched with (`DBOS.setConfig({ systemDatabaseUrl })`, or its own
 * default from `DBOS_SYSTEM_DATABASE_URL`). DBOS 5 keeps its config private; the executor it
 * launched holds the resolved URL, read here from the same module instance DBOS uses. Undefined
 * before `DBOS.launch()` or if a DBOS release moves it (then the environment variable is used).
 */
export function launchedDatabaseUrl(): string | undefined {
  try {
    const executor = dbosExecutorModule() as Executor | undefined
    const url = executor?.DBOSExecutor?.globalInstance?.config?.systemDatabaseUrl
    return typeof url === 'string' && url !== '' ? url : undefined
  } catch {
    return undefined
  }
}

/** A pool on the database DBOS uses, for the journal: DBOS's own URL first, then the environment. */
export function poolOnDbosDatabase(): Pool {
  const url = launchedDatabaseUrl() ?? process.env['DBOS_SYSTEM_DATABASE_URL']
  if (!url)
    throw new NestorError(
      'invalid_options',
      '@nestor/dbos needs the database: launch DBOS first (DBOS.setConfig({ systemDatabaseUrl })), or give durable() a pool',
    )
  const pool = new (pgPool())({ connectionString: url, max: 4 })
  // An idle client that loses its connection (a Postgres restart, a dropped socket) is emitted as
  // 'error' on the pool, which crashes the process when nobody listens. The pool has already
  // discarded that client and the next query opens a new one: nothing to do but not crash.
  pool.on('error', () => {})
  return pool
}
