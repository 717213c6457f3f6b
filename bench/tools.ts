import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ToolOutput } from '@nestor/core'
import { fileTools } from '@nestor/tools'
import { median, quantile } from './stats.js'

// The built-in file tools against Node's own APIs doing the same work, in the same run
// (docs/tools.md): `grep` over a tree of `files` text files (100 to a directory) and `read_file`
// of one 10 MB file. Warm regime: the tree is in the page cache after a warm-up. Wall time; the
// rounds alternate the two sides and the result is the median of the per-round ratios (goal <= 2×).

/** Medians of wall times (ms) and of the per-round ratios tool / Node, wall and CPU. */
export type ToolsBenchLine = { node: number; tool: number; ratio: number; spread: [number, number]; cpuRatio: number }
type Timed = { wall: number; cpu: number }

export type ToolsBenchReport = {
  files: number
  matches: number
  grep: ToolsBenchLine
  read: ToolsBenchLine
  load: number[]
}

const NEEDLE = 'needle_[0-9]+'

function makeTree(root: string, files: number): number {
  let planted = 0
  const line = 'const value = compute(alpha, beta) // a line of ordinary source text\n'
  for (let d = 0; d < Math.ceil(files / 100); d++) {
    const dir = join(root, `dir${d}`, 'src')
    mkdirSync(dir, { recursive: true })
    for (let f = 0; f < 100 && d * 100 + f < files; f++) {
      const hit = (d * 100 + f) % 50 === 0
      if (hit) planted++
      writeFileSync(join(dir, `file${f}.ts`), line.repeat(15) + (hit ? `// needle_${d}_${f}\n` : '') + line.repeat(5))
    }
  }
  writeFileSync(join(root, 'large.txt'), `${'0123456789abcdef'.repeat(63)}\n`.repeat(10_000))
  return planted
}

/** The same search with Node's APIs: every file of the tree read (16 at a time) and tested line by line. */
async function nodeGrep(root: string, re: RegExp): Promise<number> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
  let matches = 0
  let next = 0
  const worker = async () => {
    while (next < files.length) {
      const text = await readFile(files[next++]!, 'utf8')
      for (const line of text.split('\n')) if (re.test(line)) matches++
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  return matches
}

const ctx = {
  signal: new AbortController().signal,
  toolCallId: 'b',
  idempotencyKey: 'b',
  execId: 'b',
  depth: 0,
  update() {},
  log() {},
  exec() {
    throw new Error('the tools bench runs bodies outside any exec')
  },
  ask() {
    throw new Error('the tools bench runs bodies outside any exec')
  },
}

export async function toolsBench(files = 10_000, rounds = 7): Promise<ToolsBenchReport> {
  const root = mkdtempSync(join(tmpdir(), 'nestor-bench-tools-'))
  try {
    const planted = makeTree(root, files)
    const tools = fileTools({ root, maxReadBytes: 16 * 1024 * 1024 })
    const byName = (name: string) => tools.find((t) => t.spec.name === name)!
    const re = new RegExp(NEEDLE)
    const sides = {
      grep: {
        node: () => nodeGrep(root, re),
        tool: async () => {
          const out = (await byName('grep').execute({ pattern: NEEDLE, max_results: 2000 }, ctx)) as ToolOutput
          return (out.details as { effect: { matches: number } }).effect.matches
        },
      },
      read: {
        node: async () => (await readFile(join(root, 'large.txt'), 'utf8')).length,
        tool: async () => {
          const out = (await byName('read_file').execute({ path: 'large.txt' }, ctx)) as ToolOutput
          return (out.content[0] as { text: string }).text.length
        },
      },
    }
    const report: Partial<ToolsBenchReport> = { files, matches: planted }
    for (const [name, side] of Object.entries(sides)) {
      // Warm-up, and the check that both sides found the same.
      const [a, b] = [await side.node(), await side.tool()]
      if (a !== b) throw new Error(`${name}: Node found ${a}, the tool ${b}`)
      if (name === 'grep' && a !== planted) throw new Error(`grep found ${a} of ${planted} planted lines`)
      const nodes: number[] = []
      const toolTimes: number[] = []
      const ratios: number[] = []
      const cpuRatios: number[] = []
      // Wall time, and the CPU time of the whole process (every thread: the libuv pool and grep's worker included).
      const time = async (fn: () => Promise<number>) => {
        const cpu = process.cpuUsage()
        const start = performance.now()
        await fn()
        const used = process.cpuUsage(cpu)
        return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 }
      }
      for (let r = 0; r < rounds; r++) {
        // Alternate which side goes first, so neither always runs on the warmer cache.
        let n: Timed
        let t: Timed
        if (r % 2) {
          t = await time(side.tool)
          n = await time(side.node)
        } else {
          n = await time(side.node)
          t = await time(side.tool)
        }
        nodes.push(n.wall)
        toolTimes.push(t.wall)
        ratios.push(t.wall / n.wall)
        cpuRatios.push(t.cpu / n.cpu)
      }
      report[name as 'grep' | 'read'] = {
        node: median(nodes),
        tool: median(toolTimes),
        ratio: median(ratios),
        spread: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
        cpuRatio: median(cpuRatios),
      }
    }
    return { ...(report as ToolsBenchReport), load: loadavg() }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await toolsBench(
    Number(process.env.BENCH_TOOLS_FILES ?? 10_000),
    Number(process.env.BENCH_TOOLS_ROUNDS ?? 9),
  )
  const line = (what: string, l: ToolsBenchLine) =>
    `${what}: Node ${l.node.toFixed(1)} ms, tool ${l.tool.toFixed(1)} ms: ${l.ratio.toFixed(2)}× wall (p25-p75 ${l.spread[0].toFixed(2)}-${l.spread[1].toFixed(2)}), ${l.cpuRatio.toFixed(2)}× CPU time`
  console.log(line(`grep over ${report.files} files (${report.matches} matching lines), warm`, report.grep))
  console.log(line('read_file of a 10 MB file, warm', report.read))
  console.log(`load average ${report.load.map((x) => x.toFixed(2)).join(' ')}`)
  process.exitCode = report.grep.ratio <= 2 && report.read.ratio <= 2 ? 0 : 1
}
