import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, extname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { NestorError } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'
import { parseArgs, USAGE, type CliArgs } from './cli-args.js'
import type { EvalDefinition } from './define.js'
import { evaluate } from './evaluate.js'
import { progress, type Out } from './progress.js'
import { writeHtmlReport } from './report-html.js'
import { baselineOf, writeJsonReport } from './report-json.js'
import { summaryTable } from './summary-table.js'
import type { CassetteOptions, EvalReport } from './types.js'

export type CliIO = { stdout: Out; stderr: Out; cwd: string }

const EVAL_FILE = /\.eval\.(js|mjs|ts|mts)$/
const SKIP = new Set(['node_modules', '.git'])

/**
 * The eval files of the arguments (files, or folders searched recursively), in path order. In a
 * folder, an eval written in TypeScript and its compiled JavaScript (next to it or in an outDir)
 * are one eval: the one this runtime can import runs, the other is named in `skipped`.
 */
export function findEvalFiles(paths: string[], cwd: string): { files: string[]; skipped: string[] } {
  const found: string[] = []
  const walked: string[] = []
  const visit = (path: string) => {
    const stat = statSync(path)
    if (stat.isFile()) {
      if (EVAL_FILE.test(path)) walked.push(path)
      return
    }
    for (const entry of readdirSync(path).sort()) if (!SKIP.has(entry)) visit(join(path, entry))
  }
  for (const p of paths.length ? paths : ['.']) {
    const full = resolve(cwd, p)
    if (!existsSync(full)) throw new NestorError('invalid_options', `no such file or folder: ${p}`)
    if (statSync(full).isFile()) {
      if (!EVAL_FILE.test(full))
        throw new NestorError('invalid_options', `${p} is not an eval file (*.eval.js or *.eval.ts)`)
      found.push(full)
    } else visit(full)
  }
  const { kept, skipped } = withoutTwins(walked)
  return { files: [...new Set([...found, ...kept])], skipped }
}

const stem = (file: string) => basename(file).replace(EVAL_FILE, '')
const isTypeScript = (file: string) => /\.m?ts$/.test(file)
/** Node >= 22.18 strips types by default (and Bun runs TypeScript): a .ts eval imports as it is. */
const runsTypeScript = () => Boolean((process.features as { typescript?: unknown }).typescript) || 'Bun' in globalThis

/** Drops the compiled twin (same name, one .ts, one .js) of each eval, keeping what can run here. */
function withoutTwins(files: string[]): { kept: string[]; skipped: string[] } {
  const preferTs = runsTypeScript()
  const byStem = new Map<string, string[]>()
  for (const file of files) byStem.set(stem(file), [...(byStem.get(stem(file)) ?? []), file])
  const skipped = new Set<string>()
  for (const group of byStem.values()) {
    const ts = group.filter(isTypeScript)
    const js = group.filter((f) => !isTypeScript(f))
    if (ts.length === 0 || js.length === 0) continue
    for (const file of preferTs ? js : ts) skipped.add(file)
  }
  return { kept: files.filter((f) => !skipped.has(f)), skipped: [...skipped] }
}

/** Two evals writing one report file would overwrite each other: refused before any runs. */
function checkReportNames(defs: { file: string; def: EvalDefinition }[]): void {
  const seen = new Map<string, string>()
  for (const { file, def } of defs) {
    const first = seen.get(def.name)
    if (first !== undefined)
      throw new NestorError(
        'invalid_options',
        `two evals are named ${def.name} (${first} and ${file}): their reports would overwrite each other; give each its own name`,
      )
    seen.set(def.name, file)
  }
}

async function definitionsOf(file: string): Promise<EvalDefinition[]> {
  let mod: { default?: unknown }
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION')
      throw new NestorError(
        'invalid_options',
        `cannot import ${file} on Node ${process.version}: compile it (tsc) and run the .js, or use a Node that strips types (>= 22.18)`,
      )
    if (error instanceof SyntaxError && hasDecorators(file))
      throw new NestorError(
        'invalid_options',
        `cannot import ${file}: ${error.message}. It holds decorators (@tool…), which no Node runs yet: compile it with tsc's "target": "es2022" (tsc --init writes "esnext", which leaves them in); see docs/packaging.md`,
      )
    throw error
  }
  let value = mod.default
  if (typeof value === 'function') value = await (value as () => unknown)()
  const list = Array.isArray(value) ? value : [value]
  if (list.length === 0 || list.some((d) => typeof d !== 'object' || d === null))
    throw new NestorError(
      'invalid_options',
      `${file}: its default export must be an eval (defineEval({...})), a list of them, or a function returning them`,
    )
  return list as EvalDefinition[]
}

/** A line that starts with a decorator call (`@tool(`): what an esnext build leaves for Node to fail on. */
function hasDecorators(file: string): boolean {
  try {
    return /^\s*@[A-Za-z_$][\w$.]*\s*\(/m.test(readFileSync(file, 'utf8'))
  } catch {
    return false
  }
}

/** `--json out.json` names the file for one eval; a folder (or several evals) gets `<name>.json`. */
function outputPath(path: string, name: string, ext: string, several: boolean): string {
  return !several && extname(path) === ext ? path : join(path, `${name.replace(/[^\w.-]+/g, '_')}${ext}`)
}

function applyFlags(def: EvalDefinition, args: CliArgs, out: Out): EvalDefinition {
  const run: EvalDefinition = { ...def, onCase: progress(out, def.name) }
  if (args.filter !== undefined) run.filter = args.filter
  if (args.concurrency !== undefined) run.concurrency = args.concurrency
  if (args.trials !== undefined) run.trials = args.trials
  if ((args.record || args.offline) && def.cassettes !== undefined) {
    const dir = typeof def.cassettes === 'string' ? def.cassettes : def.cassettes.dir
    run.cassettes = { dir, mode: args.record ? 'record' : 'replay' } satisfies CassetteOptions
  }
  if (args.updateBaseline) delete run.baseline
  return run
}

/** The CLI: returns its exit code (0 passed, 1 missed, 2 bad usage or a file that cannot run). */
export async function main(argv: string[], io: CliIO): Promise<number> {
  let args: CliArgs
  let files: string[]
  try {
    args = parseArgs(argv)
    if (args.help) {
      io.stdout.write(`${USAGE}\n`)
      return 0
    }
    const found = findEvalFiles(args.files, io.cwd)
    files = found.files
    for (const twin of found.skipped)
      io.stderr.write(
        `nestor-eval: skipping ${relative(io.cwd, twin)}: the ${isTypeScript(twin) ? 'source' : 'compiled twin'} of an eval run from another file\n`,
      )
    if (files.length === 0)
      throw new NestorError(
        'invalid_options',
        `no *.eval.js or *.eval.ts file under ${args.files.join(', ') || io.cwd}`,
      )
  } catch (error) {
    io.stderr.write(`nestor-eval: ${messageOf(error)}\n`)
    return 2
  }
  const reports: EvalReport[] = []
  try {
    const defs: { file: string; def: EvalDefinition }[] = []
    for (const file of files) for (const def of await definitionsOf(file)) defs.push({ file, def })
    const several = defs.length > 1
    if (several && (args.json || args.html)) checkReportNames(defs)
    for (const { file, def } of defs) {
      io.stderr.write(`${basename(file)} · ${def.name}\n`)
      const report = await evaluate(applyFlags(def, args, io.stderr))
      reports.push(report)
      io.stdout.write(summaryTable(report))
      if (args.json) await writeJsonReport(report, outputPath(resolve(io.cwd, args.json), def.name, '.json', several))
      if (args.html) await writeHtmlReport(report, outputPath(resolve(io.cwd, args.html), def.name, '.html', several))
      if (args.updateBaseline) {
        if (typeof def.baseline !== 'string')
          throw new NestorError(
            'invalid_options',
            `${def.name}: --update-baseline needs the eval's baseline to be a file path`,
          )
        await writeJsonReport(baselineOf(report), resolve(io.cwd, def.baseline))
        io.stdout.write(`baseline written: ${def.baseline}\n`)
      }
    }
  } catch (error) {
    io.stderr.write(`nestor-eval: ${messageOf(error)}\n`)
    return 2
  }
  // An updated baseline is not a regression; thresholds and cassettes still count.
  return reports.every((r) => r.passed) ? 0 : 1
}
