import type { CaseReport } from './types.js'

export type Out = { write(text: string): void; isTTY?: boolean }

/** Progress of one eval: a bar redrawn in place in a terminal, one plain line per case otherwise. */
export function progress(out: Out, name: string): (c: CaseReport, done: number, total: number) => void {
  return (c, done, total) => {
    const scores = Object.entries(c.scores)
      .map(([n, s]) => `${n} ${Math.round(s.score * 100) / 100}`)
      .join(', ')
    if (!out.isTTY) {
      out.write(`${name} ${done}/${total} ${c.id} ${c.status}${scores ? ` (${scores})` : ''}\n`)
      return
    }
    const width = 24
    const filled = Math.round((done / total) * width)
    out.write(
      `\r\x1b[2K${name} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${c.id} ${c.status}`,
    )
    if (done === total) out.write('\n')
  }
}
