import { instrument } from '@nestor/otel'
import { trace } from '@opentelemetry/api'
import { cpuMs } from './processes.js'
import { API_KEY, MODEL } from './scenario.js'
import { createNestorRunner } from './runners/nestor.js'
import { createTracedNestorRunner } from './runners/nestor-otel.js'
import type { Runner } from './runners/types.js'
import { workloadByName } from './workloads.js'

// Tracing on against off, paired in one process: argv = baseURL blocks warmup. Three runtimes on
// the same mock server, identical but for instrument(): none (`off`), on a tracer that records
// nothing (`bare`: the API's no-op tracer, so only @nestor/otel's own work is left) and on an SDK
// tracer (`on`). Each block runs the three in an order and then in its reverse (off, bare, on, on,
// bare, off), so slow drift of the machine falls on every side alike; the order rotates from block
// to block, so no runtime always has the middle of a block, where garbage left by the runs before
// is most likely collected. Prints one JSON line: per block, the mean CPU ms per run of each.

export type TracingReport = { off: number[]; bare: number[]; on: number[] }

const [baseURL, blocksArg, warmupArg] = process.argv.slice(2)
const target = { baseURL: baseURL!, apiKey: API_KEY, model: MODEL }
const runners: Record<keyof TracingReport, Runner> = {
  off: createNestorRunner(target),
  // No global tracer provider is registered here, so this is the API's no-op tracer.
  bare: createNestorRunner(target, (runtime) => instrument(runtime, { tracer: trace.getTracer('bench-bare') })),
  on: createTracedNestorRunner(target),
}
const workload = workloadByName('tool-heavy')

const cpuOf = async (runner: Runner): Promise<number> => {
  const c0 = cpuMs()
  await runner.run(workload)
  return cpuMs() - c0
}

const names = Object.keys(runners) as (keyof TracingReport)[]
for (let i = 0; i < Number(warmupArg); i++) for (const name of names) await runners[name].run(workload)
const report: TracingReport = { off: [], bare: [], on: [] }
for (let b = 0; b < Number(blocksArg); b++) {
  const order = [...names.slice(b % names.length), ...names.slice(0, b % names.length)]
  const sums = { off: 0, bare: 0, on: 0 }
  for (const name of [...order, ...[...order].reverse()]) sums[name] += await cpuOf(runners[name])
  for (const name of names) report[name].push(sums[name] / 2)
}
process.stdout.write(`${JSON.stringify(report)}\n`)
