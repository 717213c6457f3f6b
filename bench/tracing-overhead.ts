import { fileURLToPath } from 'node:url'
import { runNodeJson } from './processes.js'
import { fmt, median, quantile } from './stats.js'
import type { TracingReport } from './tracing-child.js'

// The tracing overhead line: @nestor/otel on against off on tool-heavy, paired in one process
// (tracing-child.ts). Separate processes cannot show it: a fresh process's CPU per run moves by
// ±20 % on this kind of machine, four times the 5 % being looked for. Paired runs in one warm
// process cancel that drift; what is left is resampled to give an interval, not just a number.

const BLOCKS = Number(process.env.BENCH_TRACING_BLOCKS ?? 200)
const WARMUP = Number(process.env.BENCH_TRACING_WARMUP ?? 100)

/** One traced variant against the untraced runs of the same blocks. */
export type Estimate = { ratio: number; low: number; high: number; extraMs: number }
export type TracingOverhead = { offMs: number; blocks: number; on: Estimate; bare: Estimate }

export async function runTracingOverhead(
  baseURL: string,
  { blocks = BLOCKS, warmup = WARMUP }: { blocks?: number; warmup?: number } = {},
): Promise<TracingOverhead | string> {
  const child = fileURLToPath(new URL('./tracing-child.js', import.meta.url))
  const outcome = await runNodeJson<TracingReport>([child, baseURL, String(blocks), String(warmup)], 300_000)
  if (!outcome.ok) return `failed: ${outcome.error} ${outcome.stderr.slice(-500)}`
  const report = outcome.value
  return {
    offMs: median(report.off),
    blocks: report.off.length,
    on: estimate(report.off, report.on),
    bare: estimate(report.off, report.bare),
  }
}

/**
 * The ratio is 1 + the median paired difference over the median untraced run: medians, because a
 * disturbance of the machine adds tens of milliseconds to a run now and then, and a sum would be
 * that run's. The interval comes from resampling whole blocks (a bootstrap, 2000 draws, 5th–95th
 * percentile), so a noisy run shows as a wide interval.
 */
function estimate(off: number[], traced: number[]): Estimate {
  const ratioOf = (idx: number[]): number =>
    1 + median(idx.map((i) => traced[i]! - off[i]!)) / median(idx.map((i) => off[i]!))
  const all = off.map((_, i) => i)
  // A fixed seed keeps the interval a property of the data, not of the draw.
  let seed = 1
  const random = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
  const draws = Array.from({ length: 2000 }, () => ratioOf(all.map(() => Math.floor(random() * all.length))))
  return {
    ratio: ratioOf(all),
    low: quantile(draws, 0.05),
    high: quantile(draws, 0.95),
    extraMs: median(off.map((o, i) => traced[i]! - o)),
  }
}

export function renderTracingOverhead(t: TracingOverhead | string | undefined): string[] {
  if (t === undefined) return ['Tracing overhead: not measured (BENCH_SYSTEMS left out nestor+otel).']
  if (typeof t === 'string') return [`Tracing overhead: ${t}`]
  const pct = (r: number): string => `${r >= 1 ? '+' : ''}${fmt((r - 1) * 100, 1)} %`
  const line = (e: Estimate): string =>
    `${fmt(e.ratio, 3)}× (${pct(e.ratio)}; 90 % interval ${pct(e.low)} to ${pct(e.high)}), ${fmt(e.extraMs, 2)} ms a run`
  return [
    `**Tracing overhead** (tool-heavy, client CPU against no tracing, ${t.blocks * 6} runs paired in one warm process; ` +
      `untraced ${fmt(t.offMs, 1)} ms a run): with an SDK tracer and batch processor ${line(t.on)}; goal ≤ 5 %. ` +
      `@nestor/otel's own share, on a tracer that records nothing: ${line(t.bare)}.`,
  ]
}
