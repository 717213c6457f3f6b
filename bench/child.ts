import { setMaxListeners } from 'node:events'
import { performance } from 'node:perf_hooks'
import { API_KEY, MODEL } from './scenario.js'
import { loadRunner, SYSTEMS, type SystemName } from './runners/index.js'
import { workloadByName } from './workloads.js'

// One system, one workload, one round, in a process of its own: argv = system workload runs
// warmup baseURL. Owning the process makes peak RSS this system's alone, and a crash or a
// framework that cannot load costs one table cell, not the run. Prints one JSON line.

export type ChildReport =
  | { ok: true; times: number[]; peakRssMB: number; heapDeltaMB: number }
  | { ok: false; unavailable: boolean; error: string }

// pi and @openai/agents add an abort listener per turn to one signal; Node's leak warning at 11
// is noise here (the listeners are theirs and are released when the run ends).
setMaxListeners(1000)

const [system, workloadName, runsArg, warmupArg, baseURL] = process.argv.slice(2)
const report = (r: ChildReport): void => {
  process.stdout.write(`${JSON.stringify(r)}\n`)
}

async function main(): Promise<void> {
  if (!SYSTEMS.includes(system as SystemName) || !workloadName || !baseURL) throw new Error('usage: child.js system workload runs warmup baseURL')
  const workload = workloadByName(workloadName)
  let runner
  try {
    runner = await loadRunner(system as SystemName, { baseURL, apiKey: API_KEY, model: MODEL })
  } catch (err) {
    report({ ok: false, unavailable: true, error: `cannot load on Node ${process.version}: ${(err as Error).message}` })
    return
  }
  if (!runner.supports(workload)) {
    report({ ok: false, unavailable: true, error: 'not implemented for this workload' })
    return
  }
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
  const times: number[] = []
  for (let i = 0; i < Number(runsArg); i++) {
    const start = performance.now()
    await runner.run(workload)
    times.push(performance.now() - start)
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
  }
  clearInterval(sampler)
  report({
    ok: true,
    times,
    // maxRSS is the process's high-water mark (KiB): runtime + the framework's modules + its runs.
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    heapDeltaMB: (heapPeak - heapBase) / (1024 * 1024),
  })
}

main().catch((err: unknown) => {
  report({ ok: false, unavailable: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  process.exitCode = 1
})
