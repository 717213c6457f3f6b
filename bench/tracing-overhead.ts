import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { fmt, median, quantile } from './stats.js'
import type { TracingReport } from './tracing-child.js'

// The tracing overhead line: @nestor/otel on against off on tool-heavy, paired in one process
// (tracing-child.ts). Separate processes cannot show it: a fresh process's CPU per run moves by
// ±20 % on this kind of machine, four times the 5 % being looked for. Paired runs in one warm
// process cancel that drift; what is left is resampled to give an interval, not just a number.

const QUADS = Number(process.env.BENCH_TRACING_QUADS ?? 250)
const WARMUP = Number(process.env.BENCH_TRACING_WARMUP ?? 100)

export type TracingOverhead = {
  offMs: number
  extraMs: number
  ratio: number
  low: number
  high: number
  quads: number
}

export function runTracingOverhead(
  baseURL: string,
  { quads = QUADS, warmup = WARMUP }: { quads?: number; warmup?: number } = {},
): Promise<TracingOverhead | string> {
  const child = fileURLToPath(new URL('./tracing-child.js', import.meta.url))
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [child, baseURL, String(quads), String(warmup)],
      { timeout: 300_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        try {
          resolve(summarize(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as TracingReport))
        } catch {
          resolve(`failed: ${err?.message ?? ''} ${stderr.slice(-500)}`)
        }
      },
    )
  })
}

/**
 * The ratio is 1 + the median paired difference over the median untraced run: medians, because a
 * disturbance of the machine adds tens of milliseconds to a run now and then, and a sum would be
 * that run's. The interval comes from resampling whole quads (a bootstrap, 2000 draws, 5th–95th
 * percentile), so a noisy run shows as a wide interval.
 */
function summarize({ off, on }: TracingReport): TracingOverhead {
  const ratioOf = (idx: number[]): number =>
    1 + median(idx.map((i) => on[i]! - off[i]!)) / median(idx.map((i) => off[i]!))
  const all = off.map((_, i) => i)
  // A fixed seed keeps the interval a property of the data, not of the draw.
  let seed = 1
  const random = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
  const draws = Array.from({ length: 2000 }, () => ratioOf(all.map(() => Math.floor(random() * all.length))))
  return {
    offMs: median(off),
    extraMs: median(off.map((o, i) => on[i]! - o)),
    ratio: ratioOf(all),
    low: quantile(draws, 0.05),
    high: quantile(draws, 0.95),
    quads: off.length,
  }
}

export function renderTracingOverhead(t: TracingOverhead | string | undefined): string[] {
  if (t === undefined) return ['Tracing overhead: not measured (BENCH_SYSTEMS left out nestor+otel).']
  if (typeof t === 'string') return [`Tracing overhead: ${t}`]
  const pct = (r: number): string => `${r >= 1 ? '+' : ''}${fmt((r - 1) * 100, 1)} %`
  return [
    `**Tracing overhead** (@nestor/otel with an SDK tracer and batch processor against no tracing, tool-heavy, ` +
      `${t.quads * 4} runs paired in one warm process): client CPU ${fmt(t.ratio, 3)}× (${pct(t.ratio)}; 90 % interval ` +
      `${pct(t.low)} to ${pct(t.high)}), ${fmt(t.extraMs, 2)} ms more per run on ${fmt(t.offMs, 1)} ms; goal ≤ 5 %.`,
  ]
}
