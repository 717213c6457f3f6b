import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { ChildReport } from './child.js'
import { runMicro, type MicroResult } from './micro.js'
import { SYSTEMS, type SystemName } from './runners/index.js'
import { fmt, median, quantile } from './stats.js'
import { WORKLOADS, type BenchWorkload } from './workloads.js'

// The benchmark driver. The mock server runs in its own process; every (round, workload, system)
// cell runs in a fresh child process, interleaved floor → nestor → peers → floor → …, so slow
// drift of the machine hits every system alike and peak RSS belongs to one system only.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const only = process.env.BENCH_SYSTEMS?.split(',') as SystemName[] | undefined
const systems = SYSTEMS.filter((s) => !only || only.includes(s))

/** Peers implement the tool scenarios (tool-heavy, stream-heavy, long-history); nested is floor/Nestor only. */
const implemented = (system: SystemName, w: BenchWorkload): boolean =>
  system === 'floor' || system === 'nestor' || w.scenario.kind === 'tools'

type Cell = { times: number[]; rss: number[]; heap: number[]; note?: string; failed?: string }

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url))

async function startServerProcess(): Promise<{ baseURL: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [here('./mock-server-main.js')], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    let buf = ''
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const nl = buf.indexOf('\n')
      if (nl >= 0) resolve(buf.slice(0, nl))
    })
    proc.once('exit', (code) => reject(new Error(`mock server exited with ${code}`)))
  })
  return { baseURL: (JSON.parse(line) as { baseURL: string }).baseURL, proc }
}

function runChild(system: SystemName, w: BenchWorkload, baseURL: string): Promise<ChildReport> {
  const args = ['--expose-gc', here('./child.js'), system, w.name, String(w.runs), String(WARMUP), baseURL]
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 120_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const last = stdout.trim().split('\n').at(-1)
      try {
        resolve(JSON.parse(last ?? '') as ChildReport)
      } catch {
        resolve({ ok: false, unavailable: false, error: `child crashed: ${err?.message ?? ''} ${stderr.slice(-2000)}` })
      }
    })
  })
}

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(here(`../node_modules/${pkg}/package.json`), 'utf8')) as { version: string }).version
  } catch {
    return 'not installed'
  }
}

async function main(): Promise<void> {
  const started = Date.now()
  const { baseURL, proc } = await startServerProcess()
  const cells = new Map<string, Cell>()
  const key = (s: SystemName, w: BenchWorkload): string => `${s}|${w.name}`
  let failures = 0
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const w of WORKLOADS) {
        for (const system of systems) {
          const cell = cells.get(key(system, w)) ?? { times: [], rss: [], heap: [] }
          cells.set(key(system, w), cell)
          if (!implemented(system, w)) {
            cell.note = 'not run (peer runners cover the tool workloads)'
            continue
          }
          if (cell.note || cell.failed) continue
          const r = await runChild(system, w, baseURL)
          if (r.ok) {
            cell.times.push(...r.times)
            cell.rss.push(r.peakRssMB)
            cell.heap.push(r.heapDeltaMB)
          } else if (r.unavailable) {
            cell.note = r.error.split('\n')[0]
          } else {
            failures++
            cell.failed = r.error.split('\n')[0]
            process.stderr.write(`\n!!! ${system} FAILED on ${w.name} (round ${round}):\n${r.error}\n`)
            if (system === 'floor') throw new Error('the floor failed: no baseline, stopping')
          }
        }
      }
      process.stderr.write(`round ${round}/${ROUNDS} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`)
    }
  } finally {
    proc.kill('SIGTERM')
  }
  const micro = await runMicro()
  process.stdout.write(render(cells, key, micro, (Date.now() - started) / 1000))
  if (failures > 0) {
    process.stderr.write(`${failures} cell(s) failed verification — see above\n`)
    process.exitCode = 1
  }
}

function render(cells: Map<string, Cell>, key: (s: SystemName, w: BenchWorkload) => string, micro: MicroResult[], seconds: number): string {
  const floorMedian = (w: BenchWorkload): number => median(cells.get(key('floor', w))?.times ?? [])
  const out: string[] = []
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  out.push(`## Nestor bench — ${new Date().toISOString()}`, '')
  out.push(`Node ${process.version}, ${cpus().length}× ${cpu}; ${ROUNDS} rounds × (${WARMUP} warm-up + N measured runs) per system per workload, one child process per cell; total ${seconds.toFixed(0)} s.`, '')
  out.push(
    `Versions: openai ${version('openai')}, ai ${version('ai')}, @ai-sdk/openai ${version('@ai-sdk/openai')}, ` +
      `@mariozechner/pi-agent-core ${version('@mariozechner/pi-agent-core')}, @mariozechner/pi-ai ${version('@mariozechner/pi-ai')}, ` +
      `@openai/agents ${version('@openai/agents')}, zod ${version('zod')}.`,
    '',
  )
  out.push('### Median wall time per run, as a multiple of the floor (lower is better)', '')
  out.push(`| system | ${WORKLOADS.map((w) => w.name).join(' | ')} |`)
  out.push(`|---|${WORKLOADS.map(() => '---:').join('|')}|`)
  for (const s of systems) {
    const row = WORKLOADS.map((w) => {
      const c = cells.get(key(s, w))
      if (!c || c.failed) return 'FAILED'
      if (c.times.length === 0) return 'n/a'
      return `${fmt(median(c.times) / floorMedian(w), 2)}× (${fmt(median(c.times), 1)} ms)`
    })
    out.push(`| ${s} | ${row.join(' | ')} |`)
  }
  out.push('', '### Detail', '')
  out.push('| workload | system | n | median ms | p25 ms | p75 ms | ×floor | peak RSS MB | heap Δ MB | note |')
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const w of WORKLOADS) {
    for (const s of systems) {
      const c = cells.get(key(s, w))
      if (!c) continue
      const note = c.failed ? `FAILED: ${c.failed}` : (c.note ?? '')
      if (c.times.length === 0) {
        out.push(`| ${w.name} | ${s} | 0 | | | | | | | ${note} |`)
        continue
      }
      const m = median(c.times)
      out.push(
        `| ${w.name} | ${s} | ${c.times.length} | ${fmt(m)} | ${fmt(quantile(c.times, 0.25))} | ${fmt(quantile(c.times, 0.75))} | ` +
          `${fmt(m / floorMedian(w), 2)} | ${fmt(median(c.rss), 0)} | ${fmt(median(c.heap), 1)} | ${note} |`,
      )
    }
  }
  out.push('', 'Workloads: ' + WORKLOADS.map((w) => `**${w.name}** ${w.what}`).join('; ') + '.', '')
  out.push('### Nestor hot paths (micro-benchmarks, in-process)', '')
  out.push('| benchmark | per op | note |')
  out.push('|---|---:|---|')
  for (const m of micro) out.push(`| ${m.name} | ${m.perOp} | ${m.note} |`)
  out.push('')
  return out.join('\n')
}

await main()
