/** How long a journal query waits for Postgres to come back (a restart, a failover). */
const OUTAGE_MS = 60_000

// Connection-level failures: the server went away (57P01..57P03: shut down, crash, starting up),
// the connection broke (08xxx), or the socket did (errno codes). Anything else is the query's own.
const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'])

export function isOutage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P') || TRANSIENT_ERRNO.has(code)))
    return true
  const message = error instanceof Error ? error.message : ''
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)
}

/**
 * Runs a query, and again (backing off to 1 s) while it fails because Postgres is unreachable, for
 * up to a minute: a database restarted mid-run delays the journal instead of failing the exec.
 */
export async function throughOutages<T>(query: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + OUTAGE_MS
  for (let wait = 50; ; wait = Math.min(1000, wait * 2)) {
    try {
      return await query()
    } catch (error) {
      if (!isOutage(error) || Date.now() + wait > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }
}
