import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createClient, type InValue } from '@libsql/client'
import { Runtime, type Message, type Provider } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { sqliteSessions } from '@nestor/sessions/sqlite'

// What a session costs an exec on the embedded store (a SQLite file), against a floor of the same
// SQL done by hand on the same database in the same run; an exec on a session of 1,000 messages;
// and time and heap per exec as the database grows to SESSIONS sessions of 100 messages.
// `tsc -b && node bench/dist/sessions.js`; results in bench/README.md.

setFlagsFromString('--expose_gc')
const gc = runInNewContext('gc') as () => void
const ROUNDS = Number(process.env['ROUNDS'] ?? 5)
const EXECS = Number(process.env['EXECS'] ?? 40)
const SESSIONS = Number(process.env['SESSIONS'] ?? 10_000)

/** Answers every request with one short text: the model costs nothing, the store is what is timed. */
const provider: Provider = {
  name: 'bench-sessions',
  async *stream(request): AsyncGenerator<ModelEvent> {
    const builder = new AssistantBuilder('bench-sessions', request.model)
    yield builder.start()
    yield builder.text('ok')
    yield builder.done('stop')
  },
}

const dir = mkdtempSync(join(tmpdir(), 'nestor-bench-sessions-'))
const path = join(dir, 'sessions.db')
const store = sqliteSessions({ path })
const runtime = new Runtime({ provider, model: 'm', sessions: store, retention: { maxFinishedRuns: 0 } })
const plain = new Runtime({ provider, model: 'm', retention: { maxFinishedRuns: 0 } })
const raw = createClient({ url: `file:${path}`, concurrency: 1, timeout: 5000 })
const run = (sql: string, args: unknown[] = []) => raw.execute({ sql, args: args as InValue[] })

const user = (i: number): Message => ({ role: 'user', content: `question ${i} about a trip to Lisbon and Porto` })
const answer = (i: number): Message => ({
  role: 'assistant',
  content: [{ type: 'text', text: `answer ${i}: trains leave every hour from Santa Apolónia` }],
  stopReason: 'stop',
  usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, total: 20 },
  provider: 'bench-sessions',
  model: 'm',
})
const turns = (n: number): Message[] => Array.from({ length: n }, (_, i) => (i % 2 ? answer(i) : user(i)))

/** Writes sessions by hand in bulk (the setup, not timed): `count` sessions of `size` messages. */
async function seed(prefix: string, from: number, count: number, size: number): Promise<void> {
  const bodies = turns(size).map((m) => JSON.stringify(m))
  const now = Date.now()
  for (let s = from; s < from + count; s += 50) {
    const tx = await raw.transaction('write')
    for (let k = s; k < Math.min(s + 50, from + count); k++) {
      const id = `${prefix}${k}`
      await tx.execute({
        sql: 'INSERT INTO nestor_sessions (id, owner, created_at, updated_at) VALUES (?, ?, ?, ?)',
        args: [id, 'ana', now, now],
      })
      const values = bodies.map(() => '(?, ?, ?, ?)').join(', ')
      await tx.execute({
        sql: `INSERT INTO nestor_session_messages (session_id, seq, run, body) VALUES ${values}`,
        args: bodies.flatMap((b, i) => [id, i, 'seed', b]),
      })
    }
    await tx.commit()
  }
}

/** The floor: the statements sqliteSessions runs for one exec, by hand, with the exec given the history. */
async function byHand(id: string, n: number): Promise<void> {
  const holder = `hand-${n}`
  const now = Date.now()
  let tx = await raw.transaction('write')
  await tx.execute({
    sql: 'INSERT INTO nestor_sessions (id, owner, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    args: [id, 'ana', now, now],
  })
  await tx.execute({
    sql: 'UPDATE nestor_sessions SET holder = ?, lease_until = ? WHERE id = ? AND owner = ? AND (holder IS NULL OR holder = ? OR lease_until < ?)',
    args: [holder, now + 30_000, id, 'ana', holder, now],
  })
  await tx.commit()
  const rows = await run(
    'SELECT m.body, m.run FROM nestor_session_messages m JOIN nestor_sessions s ON s.id = m.session_id WHERE s.id = ? AND s.owner = ? AND s.updated_at >= ? AND m.replaced_at IS NULL ORDER BY m.seq',
    [id, 'ana', -1],
  )
  const history = rows.rows.map((r) => JSON.parse(String(r.body)) as Message)
  const result = await plain.exec('and then?', { history })
  const added = result.messages
  tx = await raw.transaction('write')
  await tx.execute({
    sql: 'UPDATE nestor_sessions SET updated_at = ? WHERE id = ? AND owner = ? AND holder = ? AND lease_until >= ?',
    args: [Date.now(), id, 'ana', holder, now],
  })
  await tx.execute({
    sql: 'INSERT INTO nestor_session_writes (session_id, write_key) VALUES (?, ?) ON CONFLICT DO NOTHING',
    args: [id, `${holder}:1`],
  })
  const next = await tx.execute({
    sql: 'SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM nestor_session_messages WHERE session_id = ?',
    args: [id],
  })
  const from = Number(next.rows[0]?.n ?? 0)
  await tx.execute({
    sql: `INSERT INTO nestor_session_messages (session_id, seq, run, body) VALUES ${added.map(() => '(?, ?, ?, ?)').join(', ')}`,
    args: added.flatMap((m, i) => [id, from + i, holder, JSON.stringify(m)]),
  })
  await tx.commit()
  await run('UPDATE nestor_sessions SET holder = NULL, lease_until = NULL WHERE id = ? AND owner = ? AND holder = ?', [
    id,
    'ana',
    holder,
  ])
}

async function withSession(id: string): Promise<void> {
  const result = await runtime.exec('and then?', { session: { id, owner: 'ana' } })
  if (result.status !== 'completed') throw new Error(`session exec: ${result.status} ${result.error?.message}`)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
/** Milliseconds per call of `work` over `EXECS` calls. */
async function perExec(work: (i: number) => Promise<void>): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < EXECS; i++) await work(i)
  return (performance.now() - started) / EXECS
}

// Tables first (the store makes them at first use), then the sessions the comparison runs on.
await store.list({ owner: 'ana' })
await seed('cmp-', 0, 2, 20)
await seed('big-', 0, 2, 1000)

// Warm-up: both paths once through, so neither pays the first compile in the timed rounds.
await perExec((i) => byHand('cmp-0', -1 - i))
await perExec(() => withSession('cmp-1'))

const floor: number[] = []
const nestor: number[] = []
const big: number[] = []
const bigFloor: number[] = []
const small: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved, so both see the same machine load; each on a session of its own of the same size.
  floor.push(await perExec((i) => byHand('cmp-0', round * EXECS + i)))
  nestor.push(await perExec(() => withSession('cmp-1')))
  bigFloor.push(await perExec((i) => byHand('big-0', 10_000 + round * EXECS + i)))
  big.push(await perExec(() => withSession('big-1')))
}
const smallId = 'small-0'
await seed('small-', 0, 1, 10)
for (let round = 0; round < ROUNDS; round++) small.push(await perExec(() => withSession(smallId)))

// Growth: per exec time and heap as the database holds more sessions (execs on random ones).
const growth: { sessions: number; msPerExec: number; heapMb: number }[] = []
let seeded = 0
for (const target of [SESSIONS / 100, SESSIONS / 10, SESSIONS]) {
  await seed('g-', seeded, target - seeded, 100)
  seeded = target
  const rounds: number[] = []
  for (let round = 0; round < ROUNDS; round++)
    rounds.push(await perExec((i) => withSession(`g-${((round * EXECS + i) * 7919) % target}`)))
  const ms = median(rounds)
  gc()
  growth.push({ sessions: target, msPerExec: ms, heapMb: process.memoryUsage().heapUsed / 2 ** 20 })
}

const f = median(floor)
const n = median(nestor)
console.log(`# sessions on SQLite (${ROUNDS} rounds × ${EXECS} execs, medians)`)
console.log(
  `load + append per exec: nestor ${n.toFixed(2)} ms, by hand ${f.toFixed(2)} ms, ratio ${(n / f).toFixed(2)}×`,
)
const bf = median(bigFloor)
const b = median(big)
console.log(
  `exec on a session of 1,000+ messages: nestor ${b.toFixed(2)} ms, by hand ${bf.toFixed(2)} ms, ratio ${(b / bf).toFixed(2)}×; on 10 messages: ${median(small).toFixed(2)} ms`,
)
for (const g of growth)
  console.log(
    `${g.sessions} sessions of 100 messages: ${g.msPerExec.toFixed(2)} ms per exec, heap ${g.heapMb.toFixed(1)} MB`,
  )
await store.close()
raw.close()
rmSync(dir, { recursive: true, force: true })
