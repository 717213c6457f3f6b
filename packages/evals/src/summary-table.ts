import type { EvalReport } from './types.js'

const pct = (x: number | undefined) => (x === undefined ? '–' : `${Math.round(x * 1000) / 10}%`)
const num = (x: number | undefined) => (x === undefined ? '–' : (Math.round(x * 1000) / 1000).toFixed(3))
const signed = (x: number) => `${x >= 0 ? '+' : ''}${(Math.round(x * 1000) / 1000).toFixed(3)}`

/** The summary a person reads after a run: one row per scorer, then what failed. Plain text, no colour. */
export function summaryTable(report: EvalReport): string {
  const rows: string[][] = [['scorer', 'mean', 'pass rate', 'threshold', 'vs baseline']]
  for (const [name, s] of Object.entries(report.scorers)) {
    const checks = report.thresholds.filter((t) => t.scorer === name)
    const b = report.baseline?.scorers[name]
    rows.push([
      name,
      num(s.mean),
      pct(s.passRate),
      checks
        .map((t) => `${t.metric} ≥ ${t.metric === 'mean' ? num(t.min) : pct(t.min)}${t.passed ? '' : ' ✗'}`)
        .join(', ') || '–',
      b?.baselineMean === undefined ? '–' : signed(s.mean - b.baselineMean),
    ])
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)))
  const line = (r: string[]) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  const t = report.totals
  const statuses = Object.entries(t.byStatus)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ')
  const out = [
    `${report.name}: ${report.passed ? 'passed' : 'FAILED'} · ${t.passed}/${t.cases} cases passed (${statuses}) · ${t.usage.total} tokens${t.scorerUsage.total ? ` + ${t.scorerUsage.total} judge tokens` : ''}${t.cost === undefined ? '' : ` · $${t.cost}`} · ${(report.durationMs / 1000).toFixed(1)} s`,
    line(rows[0]!),
    ...rows.slice(1).map(line),
    ...report.problems.map((p) => `✗ ${p}`),
    ...(report.warnings ?? []).map((w) => `! ${w}`),
  ]
  return `${out.join('\n')}\n`
}
