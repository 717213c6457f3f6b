/** A row as a driver returns it: column name → value (numbers may come back as strings or bigints). */
export type Row = Record<string, unknown>

/** What the SQL store needs of a database: statements with `?` placeholders, and write transactions. */
export interface SqlRunner {
  all(sql: string, params?: unknown[]): Promise<Row[]>
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>
}

export interface SqlDriver extends SqlRunner {
  /** Runs `body` in one write transaction: all of it or none of it. */
  transaction<T>(body: (tx: SqlRunner) => Promise<T>): Promise<T>
  /** Creates the tables once (idempotent, safe when several processes start at once). */
  migrate(statements: readonly string[]): Promise<void>
  close(): Promise<void>
}

/** A column read as a number (Postgres returns BIGINT as a string, SQLite may return a bigint). */
export const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value))
