import { setMaxListeners } from 'node:events'
import { performance } from 'node:perf_hooks'
import { cpuMs } from './processes.js'
import { API_KEY, MODEL } from './scenario.js'
import { loadRunner, SYSTEMS, type SystemName } from './runners/index.js'
import type { Runner } from './runners/types.js'
import { workloadByName } from './workloads.js'

// One system, one round, in a process of its own: argv = system workloads(comma-separated) warmup
// baseURL. Owning the process makes peak RSS this system's alone, and a crash or a framework that
// cannot load costs one row, not the run. Prints one JSON line.

export type WorkloadReport =
  { ok: true; wall: number[]; cpu: number[]; heapDeltaMB: number } | { ok: false; unavailable: boolean; error: string }

export type ChildReport =
  | { ok: true; peakRssMB: number; workloads: Record<string, WorkloadReport> }
  | { ok: false; unavailable: boolean; error: string }

// pi and @openai/agents add an abort listener per turn to one signal; Node's leak warning at 11
// is noise here (the listeners are theirs and are released when the run ends).
setMaxListeners(1000)

const [system, workloadList, warmupArg, baseURL] = process.argv.slice(2)
const report = (r: ChildReport): void => {
  process.stdout.write(`${JSON.stringify(r)}\n`)
}

async function measure(runner: Runner, name: string): Promise<WorkloadReport> {
  const workload = workloadByName(name)
  if (!runner.supports(workload)) return { ok: false, unavailable: true, error: 'not implemented for this workload' }
  try {
    for (let i = 0; i < Number(warmupArg); i++) await runner.run(workload)
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const heapBase = process.memoryUsage().heapUsed
    let heapPeak = heapBase
    // Heap is sampled between runs and by a coarse timer inside them; the timer is unref'd and
    // costs microseconds per tick, the same for every system.
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
    }, 5)
    sampler.unref()
    const wall: number[] = []
    const cpu: number[] = []
    for (let i = 0; i < workload.runs; i++) {
      const c0 = cpuMs()
      const t0 = performance.now()
      await runner.run(workload)
      wall.push(performance.now() - t0)
      cpu.push(cpuMs() - c0)
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
    }
    clearInterval(sampler)
    return { ok: true, wall, cpu, heapDeltaMB: (heapPeak - heapBase) / (1024 * 1024) }
  } catch (err) {
    return { ok: false, unavailable: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }
  }
}

async function main(): Promise<void> {
  if (!SYSTEMS.includes(system as SystemName) || !workloadList || !baseURL)
    throw new Error('usage: child.js system workloads warmup baseURL')
  let runner: Runner
  try {
    runner = await loadRunner(system as SystemName, { baseURL, apiKey: API_KEY, model: MODEL })
  } catch (err) {
    report({ ok: false, unavailable: true, error: `cannot load on Node ${process.version}: ${(err as Error).message}` })
    return
  }
  const workloads: Record<string, WorkloadReport> = {}
  for (const name of workloadList.split(',')) workloads[name] = await measure(runner, name)
  // maxRSS is the process's high-water mark (KiB): Node + the framework's modules + its runs.
  report({ ok: true, peakRssMB: process.resourceUsage().maxRSS / 1024, workloads })
}

main().catch((err: unknown) => {
  report({ ok: false, unavailable: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  process.exitCode = 1
})
