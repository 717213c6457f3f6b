import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { ChildReport } from './child.js'
import { renderCold, runCold, type ColdResult } from './cold.js'
import { renderImportTimes, runImportTimes } from './import-time.js'
import { renderCostBench, runCostBench } from './cost.js'
import { renderGuardrailsBench, runGuardrailsBench, type GuardrailsBench } from './guardrails.js'
import { runMicro } from './micro.js'
import type { MicroResult } from './time-per-op.js'
import { startServerProcess } from './mock-server-process.js'
import { runNodeJson } from './processes.js'
import { DIAGNOSTIC_SYSTEMS, SYSTEMS, type SystemName } from './runners/index.js'
import { fmt, median, quantile } from './stats.js'
import { renderTracingOverhead, runTracingOverhead, type TracingOverhead } from './tracing-overhead.js'
import { WORKLOADS, type BenchWorkload } from './workloads.js'

// The benchmark driver. The mock server runs in its own process; each round starts every system
// in a fresh child process, interleaved floor → nestor → ai-sdk → pi → agents → floor → …, so slow
// drift of a shared machine hits every system alike and peak RSS belongs to one system only.
// Wall time is what a user waits; client CPU time is reported too because it is what a framework
// costs and it is far less disturbed by other load on the machine.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const only = process.env.BENCH_SYSTEMS?.split(',') as SystemName[] | undefined
// V8 flags for the measuring children only, to ask what the JIT's tiering does to a row: e.g.
// `--max-opt=2` keeps every function below TurboFan (see "Where Nestor's time went").
const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []
const systems = SYSTEMS.filter((s) => (only ? only.includes(s) : !DIAGNOSTIC_SYSTEMS.includes(s)))

/**
 * Peers implement the tool scenarios (tool-heavy, stream-heavy, long-history); nested is floor/Nestor
 * only; nestor+otel (tracing on) runs tool-heavy, for its overhead against nestor.
 */
const implemented = (system: SystemName, w: BenchWorkload): boolean =>
  system === 'nestor+otel'
    ? w.name === 'tool-heavy'
    : system === 'floor' ||
      system === 'nestor' ||
      system === 'nestor-json' ||
      system === 'nestor-adapter' ||
      w.scenario.kind === 'tools'
const notRunNote = (system: SystemName): string =>
  system === 'nestor+otel'
    ? 'not run (tracing overhead is measured on tool-heavy)'
    : 'not run (peers cover the tool workloads)'

type Cell = { wall: number[]; cpu: number[]; heap: number[]; note?: string; failed?: string }
type Row = { rss: number[]; note?: string }

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url))

async function runChild(system: SystemName, workloads: BenchWorkload[], baseURL: string): Promise<ChildReport> {
  const args = [
    ...nodeFlags,
    '--expose-gc',
    here('./child.js'),
    system,
    workloads.map((w) => w.name).join(','),
    String(WARMUP),
    baseURL,
  ]
  const outcome = await runNodeJson<ChildReport>(args, 180_000)
  return outcome.ok
    ? outcome.value
    : { ok: false, unavailable: false, error: `child crashed: ${outcome.error} ${outcome.stderr.slice(-2000)}` }
}

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(here(`../node_modules/${pkg}/package.json`), 'utf8')) as { version: string })
      .version
  } catch {
    return 'not installed'
  }
}

async function main(): Promise<void> {
  const started = Date.now()
  const { baseURL, proc } = await startServerProcess()
  const cells = new Map<string, Cell>()
  const rows = new Map<SystemName, Row>()
  const cell = (s: SystemName, w: BenchWorkload): Cell => {
    const k = `${s}|${w.name}`
    let c = cells.get(k)
    if (!c) cells.set(k, (c = { wall: [], cpu: [], heap: [] }))
    return c
  }
  let tracing: TracingOverhead | string | undefined
  let cold: ColdResult[] | undefined
  let guardrails: GuardrailsBench | undefined
  let failures = 0
  const fail = (system: SystemName, where: string, error: string): void => {
    failures++
    process.stderr.write(`\n!!! ${system} FAILED on ${where}:\n${error}\n`)
    if (system === 'floor') throw new Error('the floor failed: no baseline, stopping')
  }
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const system of systems) {
        const row = rows.get(system) ?? { rss: [] }
        rows.set(system, row)
        if (row.note) continue
        for (const w of WORKLOADS) if (!implemented(system, w)) cell(system, w).note = notRunNote(system)
        const todo = WORKLOADS.filter((w) => implemented(system, w) && !cell(system, w).failed)
        if (todo.length === 0) continue
        const r = await runChild(system, todo, baseURL)
        if (!r.ok) {
          if (r.unavailable) row.note = r.error.split('\n')[0]
          else fail(system, `round ${round}`, r.error)
          continue
        }
        row.rss.push(r.peakRssMB)
        for (const w of todo) {
          const c = cell(system, w)
          const wr = r.workloads[w.name]
          if (!wr) continue
          if (wr.ok) {
            c.wall.push(...wr.wall)
            c.cpu.push(...wr.cpu)
            c.heap.push(wr.heapDeltaMB)
          } else if (wr.unavailable) c.note = wr.error
          else {
            c.failed = wr.error.split('\n')[0]
            fail(system, `${w.name} (round ${round})`, wr.error)
          }
        }
      }
      process.stderr.write(`round ${round}/${ROUNDS} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`)
    }
    if (systems.includes('nestor+otel')) {
      tracing = await runTracingOverhead(baseURL)
      process.stderr.write(`tracing overhead measured (${((Date.now() - started) / 1000).toFixed(0)} s)\n`)
    }
    cold = await runCold(baseURL)
    process.stderr.write(`cold regime measured (${((Date.now() - started) / 1000).toFixed(0)} s)\n`)
    guardrails = await runGuardrailsBench(undefined, baseURL)
  } finally {
    proc.kill('SIGTERM')
  }
  const micro = await runMicro()
  const imports = await runImportTimes()
  const cost = await runCostBench()
  process.stdout.write(
    render(cells, rows, micro, tracing, (Date.now() - started) / 1000) +
      '\n' +
      renderImportTimes(imports) +
      '\n' +
      renderCostBench(cost) +
      '\n' +
      (guardrails ? renderGuardrailsBench(guardrails) + '\n' : '') +
      (cold ? renderCold(cold) : ''),
  )
  if (failures > 0) {
    process.stderr.write(`${failures} failure(s) — see above\n`)
    process.exitCode = 1
  }
}

/** Model calls in one run of a workload: T tool turns + the final answer, per exec. */
const modelCalls = (w: BenchWorkload): number =>
  w.scenario.kind === 'tools' ? w.scenario.t + 1 : (w.scenario.max - w.scenario.depth + 1) * 2 - 1

/** (system − floor) ÷ model calls, tool-heavy and stream-heavy: what one model call costs on top of the SDK. */
function perCallOverhead(get: (s: SystemName, w: BenchWorkload) => Cell | undefined): string[] {
  const out: string[] = []
  for (const s of ['nestor', 'nestor-json'] as const) {
    const parts: string[] = []
    for (const w of WORKLOADS.filter((x) => x.name === 'tool-heavy' || x.name === 'stream-heavy')) {
      const floor = get('floor', w)
      const c = get(s, w)
      if (!floor?.wall.length || !c?.wall.length) continue
      const per = (m: 'wall' | 'cpu') => (median(c[m]) - median(floor[m])) / modelCalls(w)
      parts.push(`${w.name} wall ${fmt(per('wall'), 3)} ms, CPU ${fmt(per('cpu'), 3)} ms`)
    }
    if (parts.length) out.push(`- ${s}: ${parts.join('; ')}`)
  }
  return out.length
    ? ['**Overhead per model call over the floor** ((system − floor) ÷ model calls; goal ≤ 0.1 ms):', '', ...out]
    : []
}

function render(
  cells: Map<string, Cell>,
  rows: Map<SystemName, Row>,
  micro: MicroResult[],
  tracing: TracingOverhead | string | undefined,
  seconds: number,
): string {
  const get = (s: SystemName, w: BenchWorkload): Cell | undefined => cells.get(`${s}|${w.name}`)
  const floor = (w: BenchWorkload, metric: 'wall' | 'cpu'): number => median(get('floor', w)?.[metric] ?? [])
  const out: string[] = []
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  out.push(`## Nestor bench — ${new Date().toISOString()}`, '')
  out.push(
    `Node ${process.version}, ${cpus().length}× ${cpu}, load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ` +
      `${ROUNDS} rounds, each system in a fresh child process per round (${WARMUP} warm-up + N measured runs per workload); total ${seconds.toFixed(0)} s.`,
    '',
  )
  out.push(
    `Versions: openai ${version('openai')}, ai ${version('ai')}, @ai-sdk/openai ${version('@ai-sdk/openai')}, ` +
      `@mariozechner/pi-agent-core ${version('@mariozechner/pi-agent-core')}, @mariozechner/pi-ai ${version('@mariozechner/pi-ai')}, ` +
      `@openai/agents ${version('@openai/agents')}, zod ${version('zod')}.`,
    '',
  )
  for (const metric of ['wall', 'cpu'] as const) {
    out.push(
      metric === 'wall'
        ? '### Median wall time per run, × the floor (lower is better)'
        : '### Median client CPU time per run (user+system of the client process), × the floor',
      '',
    )
    out.push(`| system | ${WORKLOADS.map((w) => w.name).join(' | ')} |`)
    out.push(`|---|${WORKLOADS.map(() => '---:').join('|')}|`)
    for (const s of systems) {
      const cellsText = WORKLOADS.map((w) => {
        const c = get(s, w)
        if (c?.failed) return 'FAILED'
        if (!c || c[metric].length === 0) return rows.get(s)?.note ? 'unavailable' : 'n/a'
        const m = median(c[metric])
        return `${fmt(m / floor(w, metric), 2)}× (${fmt(m, 1)} ms)`
      })
      out.push(`| ${s} | ${cellsText.join(' | ')} |`)
    }
    out.push('')
  }
  out.push(...renderTracingOverhead(tracing), '')
  const perCall = perCallOverhead(get)
  if (perCall.length) out.push(...perCall, '')
  out.push('### Detail', '')
  out.push(
    '| workload | system | n | wall median ms | wall p25–p75 ms | ×floor wall | CPU median ms | ×floor CPU | heap Δ MB | note |',
  )
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const w of WORKLOADS) {
    for (const s of systems) {
      const c = get(s, w)
      const note = c?.failed ? `FAILED: ${c.failed}` : (c?.note ?? rows.get(s)?.note ?? '')
      if (!c || c.wall.length === 0) {
        out.push(`| ${w.name} | ${s} | 0 | | | | | | | ${note} |`)
        continue
      }
      const wall = median(c.wall)
      const cpuMedian = median(c.cpu)
      out.push(
        `| ${w.name} | ${s} | ${c.wall.length} | ${fmt(wall)} | ${fmt(quantile(c.wall, 0.25))}–${fmt(quantile(c.wall, 0.75))} | ` +
          `${fmt(wall / floor(w, 'wall'), 2)} | ${fmt(cpuMedian)} | ${fmt(cpuMedian / floor(w, 'cpu'), 2)} | ${fmt(median(c.heap), 1)} | ${note} |`,
      )
    }
  }
  out.push('', '### Memory per system (one child process per system per round)', '')
  out.push('| system | peak RSS MB (median of rounds) | note |')
  out.push('|---|---:|---|')
  for (const s of systems) {
    const row = rows.get(s)
    out.push(`| ${s} | ${row && row.rss.length ? fmt(median(row.rss), 0) : '—'} | ${row?.note ?? ''} |`)
  }
  out.push(
    '',
    'Workloads: ' + WORKLOADS.map((w) => `**${w.name}** ${w.what} (${w.runs} runs per round)`).join('; ') + '.',
    '',
  )
  out.push('### Nestor hot paths (micro-benchmarks, in-process, best of several batches)', '')
  out.push('| benchmark | per op | note |')
  out.push('|---|---:|---|')
  for (const m of micro) out.push(`| ${m.name} | ${m.perOp} | ${m.note} |`)
  out.push('')
  return out.join('\n')
}

await main()
