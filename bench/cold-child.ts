import { performance } from 'node:perf_hooks'
import { cpuMs } from './processes.js'
import { importRunner, type RunnerName } from './runners/index.js'
import { API_KEY, MODEL } from './scenario.js'
import type { Workload } from './runners/types.js'

// One cold sample: a fresh process that imports one system, sets it up as an app would (client,
// runtime, tools) and runs its first exec, the tool-heavy one (10 tool turns, 50 text chunks), to
// its last event. argv = system baseURL. Prints one JSON line of milestones, in ms since the
// process started (performance.now()'s origin): what a CLI, a test worker or a serverless cold
// start waits before its first answer.

export const COLD_WORKLOAD: Workload = { name: 'tool-heavy', scenario: { kind: 'tools', t: 10, c: 50 }, history: [] }

export type ColdSample =
  | {
      ok: true
      /** Node is up and this module runs (before any of the system's modules). */
      boot: number
      /** The system's modules are imported. */
      imported: number
      /** Client, runtime and tools are made: the first exec can start. */
      ready: number
      /** The first exec's last event has been consumed and its result verified. */
      end: number
      /** CPU time of the process (user + system) at `ready` and at `end`. */
      cpuReady: number
      cpuEnd: number
    }
  | { ok: false; error: string }

const boot = performance.now()
const [system, baseURL] = process.argv.slice(2)
const report = (s: ColdSample): void => {
  process.stdout.write(`${JSON.stringify(s)}\n`)
}

try {
  if (!system || !baseURL) throw new Error('usage: cold-child.js system baseURL')
  const factory = await importRunner(system as RunnerName)
  const imported = performance.now()
  const runner = await factory({ baseURL, apiKey: API_KEY, model: MODEL })
  const ready = performance.now()
  const cpuReady = cpuMs()
  await runner.run(COLD_WORKLOAD)
  const end = performance.now()
  const cpuEnd = cpuMs()
  await runner.close?.()
  report({ ok: true, boot, imported, ready, end, cpuReady, cpuEnd })
} catch (err) {
  report({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  process.exitCode = 1
}
