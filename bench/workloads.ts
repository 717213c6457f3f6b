import { priorHistory } from './scenario.js'
import type { Workload } from './runners/types.js'

/**
 * The four workloads. `runs` is how many measured runs one child process does per round: enough
 * that a round lasts long enough to time, few enough that the whole bench stays under 5 minutes.
 * BENCH_RUNS sets it for every workload (an independent harness measures 20 runs per process).
 */
export type BenchWorkload = Workload & { runs: number; what: string }

const runs = (n: number): number => Number(process.env.BENCH_RUNS ?? n)

export const WORKLOADS: BenchWorkload[] = [
  {
    name: 'tool-heavy',
    what: 'T=10 tool turns, C=50 text chunks',
    scenario: { kind: 'tools', t: 10, c: 50 },
    history: [],
    runs: runs(6),
  },
  {
    name: 'stream-heavy',
    what: 'T=1 tool turn, C=2000 text chunks',
    scenario: { kind: 'tools', t: 1, c: 2000 },
    history: [],
    runs: runs(6),
  },
  {
    name: 'nested',
    what: 'tool bodies open child execs to depth 3, C=50',
    scenario: { kind: 'nested', depth: 0, max: 3, c: 50 },
    history: [],
    runs: runs(8),
  },
  {
    name: 'long-history',
    what: '500 prior messages, T=1, C=50',
    scenario: { kind: 'tools', t: 1, c: 50 },
    history: priorHistory(500),
    runs: runs(8),
  },
]

export const workloadByName = (name: string): BenchWorkload => {
  const w = WORKLOADS.find((x) => x.name === name)
  if (!w) throw new Error(`unknown workload ${name}`)
  return w
}
