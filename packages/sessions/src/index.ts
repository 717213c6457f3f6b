// The root entry: the SQL store any driver can back, and the types. The stores are imported from
// their subpaths (`/sqlite`, `/postgres`), so an app loads only the database client it uses.
export { sqlSessions } from './sql/sql-store.js'
export type { SqlStoreOptions, ClosableSessionStore } from './sql/sql-store.js'
export type { SqlDriver, SqlRunner, Row } from './sql/driver.js'
export type {
  SessionStore,
  SessionInfo,
  SessionPage,
  SessionOptions,
  SessionStoreOptions,
  SessionLimits,
} from '@nestor/core'
