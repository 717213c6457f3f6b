import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DBOS } from '@dbos-inc/dbos-sdk'
import { Runtime } from '@nestor/core'
import { durable, type DurableExecs } from '@nestor/dbos'
import { openai } from '@nestor/providers'
import { startModelMock, type ModelMock } from './model-mock.js'
import { startPostgres, type TestPostgres } from './postgres.js'

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url))

export type Worker = {
  process: ChildProcess
  /** Lines the process printed, parsed. */
  lines: unknown[]
  exited: Promise<number | null>
  kill(): Promise<void>
}

export type Cluster = {
  postgres: TestPostgres
  model: ModelMock
  toolLog: string
  env: Record<string, string>
  /** Leaf tool bodies that ran, one line each (`name workflowId args`). */
  toolRuns(): string[]
  /** Starts a worker process and waits until DBOS launched in it. */
  worker(env?: Record<string, string>): Promise<Worker>
  /** Runs a client process to its end (MODE=start|events) and returns what it printed. */
  client(env: Record<string, string>): Promise<unknown[]>
  /** This test process as a DBOS client of the same app: starts, reads, decides (never runs execs). */
  trips: DurableExecs
  stop(): Promise<void>
}

/**
 * Postgres, the model mock, and this process launched as a DBOS client. Workers are real Node
 * processes running the built packages, so a test can SIGKILL them mid-run.
 */
export async function startCluster(
  scenario: 'planner' | 'quick' | 'pay',
  onModelRequest?: (count: number) => void | Promise<void>,
): Promise<Cluster> {
  const postgres = await startPostgres()
  const model = await startModelMock(onModelRequest)
  const dir = mkdtempSync(join(tmpdir(), 'nestor-dbos-'))
  const toolLog = join(dir, 'tools.log')
  writeFileSync(toolLog, '')
  const env: Record<string, string> = {
    DBOS_SYSTEM_DATABASE_URL: postgres.url,
    MODEL_URL: model.url,
    TOOL_LOG: toolLog,
    SCENARIO: scenario,
  }
  const children = new Set<Worker>()
  const spawnWorker = (extra: Record<string, string>): Worker => {
    const child = spawn(process.execPath, [WORKER], { env: { ...process.env, ...env, ...extra }, stdio: 'pipe' })
    const lines: unknown[] = []
    let buffer = ''
    let stderr = ''
    child.stdout.on('data', (data: Buffer) => {
      buffer += data.toString('utf8')
      let newline
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        try {
          lines.push(JSON.parse(line))
        } catch {
          // DBOS or Node output that is not ours.
        }
      }
    })
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString('utf8')
      if (process.env['NESTOR_DBOS_DEBUG']) process.stderr.write(data)
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const worker: Worker = {
      process: child,
      lines,
      exited,
      async kill() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        await exited
        children.delete(worker)
      },
    }
    Object.defineProperty(worker, 'stderr', { get: () => stderr })
    children.add(worker)
    return worker
  }

  DBOS.setConfig({
    name: 'nestor-dbos-test',
    systemDatabaseUrl: postgres.url,
    applicationVersion: 'test',
    executorID: `test-${process.pid}`,
    logLevel: 'error',
    listenQueues: ['nestor-no-such-queue'],
  })
  const runtime = new Runtime({
    provider: openai({ baseURL: `${model.url}/v1`, apiKey: 'sk-test-dbos', maxRetries: 0 }),
    model: 'mock-model',
  })
  const trips = durable(runtime, { name: scenario })
  await DBOS.launch()

  return {
    postgres,
    model,
    toolLog,
    env,
    toolRuns: () => readFileSync(toolLog, 'utf8').split('\n').filter(Boolean),
    async worker(extra = {}) {
      const worker = spawnWorker({ MODE: 'worker', ...extra })
      const deadline = Date.now() + 30_000
      while (!worker.lines.some((l) => (l as { ready?: boolean }).ready)) {
        if (worker.process.exitCode !== null || Date.now() > deadline)
          throw new Error(`worker did not start: ${(worker as unknown as { stderr: string }).stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return worker
    },
    async client(extra) {
      const worker = spawnWorker(extra)
      const code = await worker.exited
      children.delete(worker)
      if (code !== 0) throw new Error(`client failed (${code}): ${(worker as unknown as { stderr: string }).stderr}`)
      return worker.lines
    },
    trips,
    async stop() {
      for (const worker of [...children]) await worker.kill()
      await DBOS.shutdown()
      await trips.close()
      await model.close()
      await postgres.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
