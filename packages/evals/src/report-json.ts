import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { EvalReport } from './types.js'

/** The report as stable JSON (format nestor-eval-report, version 1: see docs/evals.md). */
export const toJsonReport = (report: EvalReport): string => `${JSON.stringify(report, null, 2)}\n`

export async function writeJsonReport(report: EvalReport, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, toJsonReport(report))
}
