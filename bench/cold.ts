import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ColdSample } from './cold-child.js'
import { startServerProcess } from './mock-server-process.js'
import { runNodeJson } from './processes.js'
import type { RunnerName } from './runners/index.js'
import { fmt, median, quantile } from './stats.js'

// The cold regime: each sample is a fresh Node process (cold-child.ts) that imports one system,
// sets it up and runs one tool-heavy exec, as a CLI, a test worker or a serverless cold start
// does. Systems are interleaved round by round, the order rotating, so a shared machine's drift
// and a slot's position hit all alike; each ratio to the raw SDK is taken within a round.

export const COLD_SYSTEMS: readonly RunnerName[] = [
  'floor',
  'nestor',
  'nestor-json',
  'nestor-mcp',
  'nestor-json-root',
  'ai-sdk',
  'pi-agent-core',
  '@openai/agents',
]

const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 11)
const child = fileURLToPath(new URL('./cold-child.js', import.meta.url))

type Done = Extract<ColdSample, { ok: true }>
/** `tree`: another checkout whose built cold child runs this row (a before/after comparison). */
export type ColdResult = { system: RunnerName; tree?: string; samples: (Done | undefined)[]; failed?: string }

export async function sampleCold(system: RunnerName, baseURL: string, tree?: string): Promise<ColdSample> {
  const script = tree ? join(tree, 'bench/dist/cold-child.js') : child
  const outcome = await runNodeJson<ColdSample>([script, system, baseURL], 120_000)
  return outcome.ok ? outcome.value : { ok: false, error: `${outcome.error} ${outcome.stderr.slice(-1000)}` }
}

export async function runCold(
  baseURL: string,
  {
    rounds = ROUNDS,
    systems = COLD_SYSTEMS,
    before,
  }: { rounds?: number; systems?: readonly RunnerName[]; before?: string } = {},
): Promise<ColdResult[]> {
  const results = systems.flatMap((system): ColdResult[] => [
    { system, samples: [] },
    ...(before && system !== 'floor' ? [{ system, tree: before, samples: [] }] : []),
  ])
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < results.length; i++) {
      const result = results[(i + round) % results.length]!
      if (result.failed) continue
      const s = await sampleCold(result.system, baseURL, result.tree)
      if (s.ok) result.samples[round] = s
      else result.failed = s.error.split('\n')[0]?.slice(0, 200) ?? 'failed'
    }
  }
  return results
}

const startUp = (s: Done): number => s.ready
const firstExec = (s: Done): number => s.end - s.ready
const sum = (s: Done): number => s.end

const cell = (values: number[]): string =>
  `${fmt(median(values), 0)} (${fmt(quantile(values, 0.25), 0)}–${fmt(quantile(values, 0.75), 0)})`

export function renderCold(results: ColdResult[], rounds = ROUNDS): string {
  const floor = results.find((r) => r.system === 'floor')
  const out = [
    '### Cold: a fresh process per sample, start to the first exec’s end (ms: median (p25–p75); lower is better)',
    '',
    `Tool-heavy (10 tool turns, 50 text chunks), ${rounds} rounds, systems interleaved with the order rotating per round. ` +
      'Start-up = Node start → the system’s modules imported and client, runtime and tools made; first exec = to its last event; ' +
      '× raw SDK = median of the per-round ratios (p25–p75) to the floor’s sum; CPU = the process’s user + system at the first exec’s end.',
    '',
    '| system | start-up + imports + set-up | of it: imports | first exec | sum | × raw SDK (sum) | CPU sum | × raw SDK (CPU) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const { system: name, tree, samples, failed } of results) {
    const system = tree ? `${name}, before` : name
    const done = samples.filter((s): s is Done => s !== undefined)
    if (failed || done.length === 0) {
      out.push(`| ${system} | unavailable: ${failed ?? 'no sample'} | | | | | | |`)
      continue
    }
    const ratios = (metric: (s: Done) => number): number[] =>
      samples.flatMap((s, round) => {
        const base = floor?.samples[round]
        return s && base ? [metric(s) / metric(base)] : []
      })
    const ratioCell = (r: number[]): string =>
      r.length ? `${fmt(median(r), 2)}× (${fmt(quantile(r, 0.25), 2)}–${fmt(quantile(r, 0.75), 2)})` : '—'
    out.push(
      `| ${system} | ${cell(done.map(startUp))} | ${cell(done.map((s) => s.imported))} | ${cell(done.map(firstExec))} | ` +
        `${cell(done.map(sum))} | ${ratioCell(ratios(sum))} | ${cell(done.map((s) => s.cpuEnd))} | ${ratioCell(ratios((s) => s.cpuEnd))} |`,
    )
  }
  out.push('')
  return out.join('\n')
}

// `node bench/dist/cold.js` runs this part of the bench alone (BENCH_COLD_SYSTEMS=floor,nestor to pick;
// BENCH_COLD_BEFORE=<a built checkout> adds each system from that tree, interleaved, as "…, before").
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { baseURL, proc } = await startServerProcess()
  try {
    const only = process.env.BENCH_COLD_SYSTEMS?.split(',') as RunnerName[] | undefined
    const before = process.env.BENCH_COLD_BEFORE
    process.stdout.write(
      renderCold(await runCold(baseURL, { ...(only ? { systems: only } : {}), ...(before ? { before } : {}) })),
    )
  } finally {
    proc.kill('SIGTERM')
  }
}
