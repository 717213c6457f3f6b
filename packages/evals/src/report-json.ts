import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { EvalReport } from './types.js'

/** The report as stable JSON (format nestor-eval-report, version 1: see docs/evals.md). */
export const toJsonReport = (report: EvalReport): string => `${JSON.stringify(report, null, 2)}\n`

/** A report kept as a baseline: every score, no results or trees (they are not compared, and churn). */
export function baselineOf(report: EvalReport): EvalReport {
  return { ...report, cases: report.cases.map(({ result: _result, tree: _tree, ...rest }) => rest) }
}

export async function writeJsonReport(report: EvalReport, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, toJsonReport(report))
}
