import { API_KEY, MODEL } from './scenario.js'
import { createNestorRunner } from './runners/nestor.js'
import { createTracedNestorRunner } from './runners/nestor-otel.js'
import type { Runner } from './runners/types.js'
import { workloadByName } from './workloads.js'

// Tracing on against off, paired in one process: argv = baseURL quads warmup. Two runtimes on the
// same mock server, identical but for instrument(). Each quad runs off, on, on, off (then on, off,
// off, on), so slow drift of the machine and whatever one run leaves to the next (garbage, JIT
// state) fall on both sides alike. Prints one JSON line: per quad, the mean CPU ms per run of each.

export type TracingReport = { off: number[]; on: number[] }

const [baseURL, quadsArg, warmupArg] = process.argv.slice(2)
const target = { baseURL: baseURL!, apiKey: API_KEY, model: MODEL }
const off = createNestorRunner(target)
const on = createTracedNestorRunner(target)
const workload = workloadByName('tool-heavy')

const cpuMs = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const cpuOf = async (runner: Runner): Promise<number> => {
  const c0 = cpuMs()
  await runner.run(workload)
  return cpuMs() - c0
}

for (let i = 0; i < Number(warmupArg); i++) {
  await off.run(workload)
  await on.run(workload)
}
const report: TracingReport = { off: [], on: [] }
for (let q = 0; q < Number(quadsArg); q++) {
  const [first, second] = q % 2 === 0 ? [off, on] : [on, off]
  const a1 = await cpuOf(first)
  const b1 = await cpuOf(second)
  const b2 = await cpuOf(second)
  const a2 = await cpuOf(first)
  const [offCpu, onCpu] = first === off ? [a1 + a2, b1 + b2] : [b1 + b2, a1 + a2]
  report.off.push(offCpu / 2)
  report.on.push(onCpu / 2)
}
process.stdout.write(`${JSON.stringify(report)}\n`)
