/**
 * A unified diff of two texts by lines (`diff -u` style, 3 lines of context), for approval
 * previews. The common head and tail are cut first; the middle is aligned by longest common
 * subsequence when small enough, else shown as one replaced block (still a correct diff).
 */
export function unifiedDiff(path: string, before: string | undefined, after: string): string {
  const a = before === undefined ? [] : splitLines(before)
  const b = splitLines(after)
  const ops = diffLines(a, b)
  const header = `--- ${before === undefined ? '/dev/null' : `a/${path}`}\n+++ b/${path}\n`
  const hunks = toHunks(ops, 3)
  return hunks.length === 0 ? `${header}(no change)\n` : header + hunks.join('')
}

type Op = { kind: ' ' | '-' | '+'; line: string; aIndex: number; bIndex: number }

const splitLines = (text: string): string[] => {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  else lines[lines.length - 1] += '\n\\ No newline at end of file'
  return lines
}

const MAX_CELLS = 4_000_000

function diffLines(a: string[], b: string[]): Op[] {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const ops: Op[] = []
  for (let i = 0; i < head; i++) ops.push({ kind: ' ', line: a[i]!, aIndex: i, bIndex: i })
  const midA = a.slice(head, a.length - tail)
  const midB = b.slice(head, b.length - tail)
  ops.push(...middle(midA, midB, head))
  for (let k = tail; k > 0; k--)
    ops.push({ kind: ' ', line: a[a.length - k]!, aIndex: a.length - k, bIndex: b.length - k })
  return ops
}

function middle(a: string[], b: string[], offset: number): Op[] {
  const ops: Op[] = []
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) {
    a.forEach((line, i) => ops.push({ kind: '-', line, aIndex: offset + i, bIndex: offset }))
    b.forEach((line, j) => ops.push({ kind: '+', line, aIndex: offset + a.length, bIndex: offset + j }))
    return ops
  }
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = b.length + 1
  const lcs = new Uint32Array((a.length + 1) * width)
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!)
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]!, aIndex: offset + i++, bIndex: offset + j++ })
    } else if (i < a.length && (j === b.length || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
      // Removals before additions, as diff -u prints them.
      ops.push({ kind: '-', line: a[i]!, aIndex: offset + i++, bIndex: offset + j })
    } else {
      ops.push({ kind: '+', line: b[j]!, aIndex: offset + i, bIndex: offset + j++ })
    }
  }
  return ops
}

function toHunks(ops: Op[], context: number): string[] {
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]))
  const hunks: string[] = []
  let k = 0
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - context)
    let end = Math.min(ops.length, changed[k]! + context + 1)
    while (k + 1 < changed.length && changed[k + 1]! - context <= end)
      end = Math.min(ops.length, changed[++k]! + context + 1)
    k++
    const slice = ops.slice(start, end)
    const aCount = slice.filter((op) => op.kind !== '+').length
    const bCount = slice.filter((op) => op.kind !== '-').length
    const first = slice[0]!
    const aStart = aCount === 0 ? first.aIndex : first.aIndex + 1
    const bStart = bCount === 0 ? first.bIndex : first.bIndex + 1
    const body = slice.map((op) => `${op.kind}${op.line}\n`).join('')
    hunks.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@\n${body}`)
  }
  return hunks
}

/** Lines added and removed between two texts (for a write's effect). */
export function lineChanges(before: string | undefined, after: string): { added: number; removed: number } {
  const ops = diffLines(before === undefined ? [] : splitLines(before), splitLines(after))
  return {
    added: ops.filter((op) => op.kind === '+').length,
    removed: ops.filter((op) => op.kind === '-').length,
  }
}
