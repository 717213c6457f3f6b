import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, memorySessions, type SessionStore } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { runSessionStoreConformance } from '@nestor/sessions/conformance'
import { postgresSessions } from '@nestor/sessions/postgres'
import { sqliteSessions } from '@nestor/sessions/sqlite'
import { endPool, startPostgres, type TestPostgres } from '../dbos/support/postgres.js'
import { ensureBuilt } from '../support/built.js'
import { calls, historyProblems } from '../support/run.js'

// One Postgres and one SQLite file for the whole file: the kit makes sessions under random owners.
const RACER = fileURLToPath(new URL('./support/racer.mjs', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'nestor-sessions-'))
let postgres: TestPostgres
let url: string
const stores: { name: string; store: SessionStore & { close?(): Promise<void> } }[] = []

beforeAll(async () => {
  ensureBuilt()
  postgres = await startPostgres()
  url = postgres.url.replace(/\/[^/]*$/, '/postgres')
  stores.push({ name: 'sqlite', store: sqliteSessions({ path: join(dir, 'kit.db') }) })
  stores.push({ name: 'postgres', store: postgresSessions({ connectionString: url }) })
}, 120_000)

afterAll(async () => {
  for (const { store } of stores) await store.close?.()
  await postgres?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('the conformance kit', () => {
  it('passes for memorySessions, sqliteSessions and postgresSessions', async () => {
    for (const { name, store } of [{ name: 'memory', store: memorySessions() }, ...stores]) {
      const report = await runSessionStoreConformance(store)
      expect({ name, failed: report.failed }).toEqual({ name, failed: [] })
      expect(report.passed).toBe(report.checks.length)
    }
  })

  it('fails a store that breaks the contract, naming the check', async () => {
    // A store that forgets owners: every owner reads every session.
    const real = memorySessions()
    const careless: SessionStore = { ...real, messages: (id) => real.messages(id, { owner: lastOwner }) }
    let lastOwner = ''
    const acquire = real.acquire.bind(real)
    careless.acquire = (id, lease) => ((lastOwner ||= lease.owner), acquire(id, lease))
    const report = await runSessionStoreConformance(careless)
    expect(report.failed.map((f) => f.name)).toContain("another owner's session answers like an unknown one")
  })
})

/** Spawns a racer process; resolves its JSON lines as they come. */
function racer(env: Record<string, string>) {
  const child = spawn(process.execPath, [RACER], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const seen: Record<string, unknown>[] = []
  const waiters: (() => void)[] = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    seen.push(JSON.parse(line) as Record<string, unknown>)
    for (const wake of waiters.splice(0)) wake()
  })
  const until = async (test: (lines: Record<string, unknown>[]) => boolean) => {
    while (!test(seen)) await new Promise<void>((resolve) => waiters.push(resolve))
  }
  return { child, seen, until, send: (line: string) => child.stdin.write(`${line}\n`) }
}

describe('real stores', () => {
  it.each(['sqlite', 'postgres'])(
    '%s: two runtimes in two processes race on one session; one writes, the other fails session_busy before any request',
    async (kind) => {
      const at = kind === 'sqlite' ? join(dir, 'race.db') : url
      const env = { STORE: kind, STORE_AT: at, SESSION: `race-${kind}`, OWNER: 'ana' }
      const a = racer({ ...env, NAME: 'a' })
      const b = racer({ ...env, NAME: 'b' })
      await Promise.all([a.until((l) => l.length > 0), b.until((l) => l.length > 0)])
      a.send('go')
      b.send('go')
      const ended = (l: Record<string, unknown>[]) => l.some((x) => 'status' in x)
      const holding = (l: Record<string, unknown>[]) => l.some((x) => x.holding === true)
      await Promise.all([a, b].map((r) => r.until((l) => ended(l) || holding(l))))
      const [winner, loser] = holding(a.seen) ? [a, b] : [b, a]
      await loser.until(ended)
      expect(loser.seen.at(-1)).toEqual({ status: 'failed', code: 'session_busy', requests: 0 })
      winner.send('release')
      await winner.until(ended)
      expect(winner.seen.at(-1)).toEqual({ status: 'completed', code: null, requests: 2 })
      const store = kind === 'sqlite' ? sqliteSessions({ path: at }) : postgresSessions({ connectionString: at })
      const stored = await store.messages(`race-${kind}`, { owner: 'ana' })
      await store.close()
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant'])
      expect(historyProblems(stored)).toEqual([])
    },
    60_000,
  )

  it('sqlite: with wait, the second process waits for the first and then appends after it', async () => {
    const at = join(dir, 'wait.db')
    const env = { STORE: 'sqlite', STORE_AT: at, SESSION: 'queue', OWNER: 'ana', WAIT: '1' }
    const a = racer({ ...env, NAME: 'a' })
    const b = racer({ ...env, NAME: 'b' })
    await Promise.all([a.until((l) => l.length > 0), b.until((l) => l.length > 0)])
    a.send('go')
    b.send('go')
    const holding = (l: Record<string, unknown>[]) => l.some((x) => x.holding === true)
    const ended = (l: Record<string, unknown>[]) => l.some((x) => 'status' in x)
    await Promise.race([a.until(holding), b.until(holding)])
    const [first, second] = holding(a.seen) ? [a, b] : [b, a]
    first.send('release')
    await first.until(ended)
    expect(first.seen.at(-1)).toEqual({ status: 'completed', code: null, requests: 2 })
    // The lease given back, the waiting process goes on (a process that ended instead fails here, not by a timeout).
    await second.until((l) => holding(l) || ended(l))
    expect(second.seen.at(-1)).toEqual({ holding: true })
    second.send('release')
    await second.until(ended)
    expect(second.seen.at(-1)).toEqual({ status: 'completed', code: null, requests: 2 })
    const store = sqliteSessions({ path: at })
    const stored = await store.messages('queue', { owner: 'ana' })
    await store.close()
    const firstName = first === a ? 'a' : 'b'
    const secondName = first === a ? 'b' : 'a'
    expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      `hello from ${firstName}`,
      `hello from ${secondName}`,
    ])
    expect(historyProblems(stored)).toEqual([])
  }, 60_000)

  it('retention drops idle sessions; bad bounds are invalid_options at the factory', async () => {
    const sqlite = sqliteSessions({ path: join(dir, 'retention.db'), retention: { days: 0 } })
    const made = [memorySessions({ retention: { days: 0 } }), sqlite]
    for (const store of made) {
      const runtime = new Runtime({ provider: scripted(['kept a moment']), model: 'm', sessions: store })
      expect((await runtime.exec('hello', { session: { id: 'old', owner: 'ana' } })).status).toBe('completed')
      await new Promise((r) => setTimeout(r, 5))
      expect(await store.messages('old', { owner: 'ana' })).toEqual([])
      expect((await store.list({ owner: 'ana' })).sessions).toEqual([])
    }
    await sqlite.close()
    expect(() => memorySessions({ maxMessages: 0 })).toThrow(/maxMessages/)
    expect(() => sqliteSessions({ path: ':memory:', retention: { days: -1 } })).toThrow(/retention.days/)
  })

  it('sqlite: a corrupted row is invalid_state naming the session, for the reader and for an exec', async () => {
    const path = join(dir, 'corrupt.db')
    const store = sqliteSessions({ path })
    const runtime = new Runtime({ provider: scripted(['one', 'two']), model: 'm', sessions: store })
    await runtime.exec('hi', { session: { id: 'c1', owner: 'ana' } })
    const { createClient } = await import('@libsql/client')
    const raw = createClient({ url: `file:${path}` })
    await raw.execute('UPDATE nestor_session_messages SET body = \'{"role":"robot"}\' WHERE seq = 1')
    raw.close()
    await expect(store.messages('c1', { owner: 'ana' })).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('c1'),
    })
    const result = await runtime.exec('again', { session: { id: 'c1', owner: 'ana' } })
    expect(result.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('session c1') })
    // Refused before any request, and the lease was given back.
    expect(await store.acquire('c1', { owner: 'ana', holder: 'next', leaseMs: 1000 })).toBe('acquired')
    await store.close()
  })

  it('postgres: the store going away mid-append fails the exec; what was stored stays whole and valid', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 })
    pool.on('error', () => undefined)
    const store = postgresSessions({ pool })
    let outage: Promise<void> | undefined
    const cut = defineTool({
      name: 'cut',
      description: 'the database goes away while this runs',
      parameters: z.object({}),
      execute: async () => {
        outage = postgres.outage(1500)
        // Returns once the server refuses connections: the turn's write then meets no database.
        for (;;) {
          const probe = new pg.Client({ connectionString: url })
          probe.on('error', () => undefined)
          const down = await probe.connect().then(
            () => probe.end().then(() => false),
            () => true,
          )
          if (down) return 'cut'
          await new Promise((r) => setTimeout(r, 20))
        }
      },
    })
    const provider = scripted(['first answer', calls({ name: 'cut' }), 'never reached'])
    const runtime = new Runtime({ provider, model: 'm', sessions: store })
    const session = { id: 'gone', owner: 'ana' }
    expect((await runtime.exec('first', { session })).status).toBe('completed')
    const result = await runtime.exec('second', { session, tools: [cut] })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('store_error')
    expect(provider.requests).toHaveLength(2)
    await outage
    const stored = await store.messages('gone', { owner: 'ana' })
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(historyProblems(stored)).toEqual([])
    await endPool(pool)
  }, 60_000)
})
