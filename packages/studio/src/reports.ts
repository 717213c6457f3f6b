import { readFile, stat } from 'node:fs/promises'

/** Reports over this many bytes are not read: the page says so instead. */
const MAX_REPORT_BYTES = 32 * 1024 * 1024

/** An eval report (`nestor-eval`'s JSON) as the page gets it, or why it cannot be shown. */
export type ReportRead = { path: string; report?: unknown; problem?: string }

export async function readReport(path: string): Promise<ReportRead> {
  try {
    const { size } = await stat(path)
    if (size > MAX_REPORT_BYTES)
      return { path, problem: `holds ${size} bytes, over the ${MAX_REPORT_BYTES} the studio reads` }
    const report = JSON.parse(await readFile(path, 'utf8')) as { format?: unknown }
    if (report?.format !== 'nestor-eval-report')
      return { path, problem: 'is not a Nestor eval report (no "format": "nestor-eval-report")' }
    return { path, report }
  } catch (error) {
    return { path, problem: `cannot be read: ${error instanceof Error ? error.message : String(error)}` }
  }
}
