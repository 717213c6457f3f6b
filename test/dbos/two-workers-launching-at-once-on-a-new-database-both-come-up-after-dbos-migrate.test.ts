import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DBOS } from '@dbos-inc/dbos-sdk'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startModelMock, type ModelMock } from './support/model-mock.js'
import { startPostgres, type TestPostgres } from './support/postgres.js'

// docs/dbos.md "Launching on a new database": DBOS creates its schema at the first launch, and two
// processes launching at once on a database without one can both try. The documented deploy step,
// DBOS.migrate(url), run once first, lets any number of workers launch together.

const WORKER = fileURLToPath(new URL('./support/worker.mjs', import.meta.url))
let postgres: TestPostgres
let model: ModelMock
let dir: string
const children = new Set<ReturnType<typeof spawn>>()

beforeAll(async () => {
  postgres = await startPostgres()
  model = await startModelMock()
  dir = mkdtempSync(join(tmpdir(), 'nestor-dbos-launch-'))
  writeFileSync(join(dir, 'tools.log'), '')
}, 60_000)
afterAll(async () => {
  for (const child of children) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    else continue
    await exited
  }
  await model?.close()
  await postgres?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 30_000)

/** Runs worker.mjs; resolves with its JSON lines once one satisfies `done` (or it exits). */
function run(env: Record<string, string>, done: (line: Record<string, unknown>) => boolean) {
  const child = spawn(process.execPath, [WORKER], {
    env: {
      ...process.env,
      DBOS_SYSTEM_DATABASE_URL: postgres.url,
      MODEL_URL: model.url,
      TOOL_LOG: join(dir, 'tools.log'),
      SCENARIO: 'quick',
      ...env,
    },
    stdio: 'pipe',
  })
  children.add(child)
  let stderr = ''
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')))
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    let buffer = ''
    child.stdout.on('data', (data: Buffer) => {
      buffer += data.toString('utf8')
      for (let newline; (newline = buffer.indexOf('\n')) >= 0; buffer = buffer.slice(newline + 1)) {
        try {
          const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>
          if (done(line)) resolve(line)
        } catch {
          // DBOS or Node output that is not ours.
        }
      }
    })
    child.once('exit', (code) => reject(new Error(`exited ${code} first: ${stderr}`)))
  })
}

test('after DBOS.migrate, two workers launching at the same moment on a new database both come up and serve the queue', async () => {
  await DBOS.migrate(postgres.url)
  const ready = (line: Record<string, unknown>) => line['ready'] === true
  const workers = await Promise.all([
    run({ MODE: 'worker', EXECUTOR_ID: 'launch-a' }, ready),
    run({ MODE: 'worker', EXECUTOR_ID: 'launch-b' }, ready),
  ])
  expect(workers).toEqual([{ ready: true }, { ready: true }])
  // A client enqueues execs; the two workers run them to their results.
  const batch = await run({ MODE: 'batch', COUNT: '4', PREFIX: 'launched' }, (line) => 'elapsedMs' in line)
  expect(batch['elapsedMs']).toEqual(expect.any(Number))
  expect(model.calls()).toBe(8)
}, 90_000)
