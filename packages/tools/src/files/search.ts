import { stat } from 'node:fs/promises'
import type { Tool } from '@nestor/core'
import { builtinTool, ToolRefusal, withEffect } from '../define.js'
import type { Root } from './confine.js'
import { globToRegExp } from './glob-pattern.js'
import { grepInWorker } from './grep-worker.js'
import type { ReadLimits } from './read-file.js'
import { walkFiles } from './walk.js'

type GlobArgs = { pattern: string; path?: string }
type GrepArgs = { pattern: string; path?: string; glob?: string; ignore_case?: boolean; max_results?: number }

const MAX_GLOB_RESULTS = 1000
const MAX_LINE_CHARS = 300
/** Files read at once: enough to keep the disk and the thread pool busy, few enough to bound memory. */
const READ_CONCURRENCY = 16

/** The files under `path` (a directory, or one file) that match `glob`, root-relative. */
async function filesUnder(root: Root, path: string, glob: string | undefined, signal: AbortSignal) {
  const start = await root.existing(path)
  const matcher = glob === undefined ? undefined : globToRegExp(glob)
  const isDir = (await stat(start.real)).isDirectory()
  const all = isDir ? await walkFiles(start.real, start.shown, signal) : [{ real: start.real, rel: start.shown }]
  return { start, files: matcher ? all.filter((f) => matcher.test(f.rel)) : all }
}

export function globTool(root: () => Promise<Root>): Tool {
  return builtinTool<GlobArgs>({
    name: 'glob',
    description:
      'Find files under the root by name: ** any directories, * and ? within a name, {a,b} alternatives. A pattern without / matches at any depth (*.ts). Skips .git and node_modules.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob, e.g. src/**/*.test.ts or *.md' },
        path: { type: 'string', description: 'Directory to search (default: the root)' },
      },
      required: ['pattern'],
    },
    execute: async ({ pattern, path = '.' }, ctx) => {
      const r = await root()
      const base = await r.existing(path)
      const matcher = globToRegExp(pattern)
      const files = (await walkFiles(base.real, '.', ctx.signal)).filter((f) => matcher.test(f.rel))
      const shown = files.slice(0, MAX_GLOB_RESULTS).map((f) => (base.shown === '.' ? f.rel : `${base.shown}/${f.rel}`))
      const truncated = files.length > MAX_GLOB_RESULTS
      const note = truncated ? `\n[first ${MAX_GLOB_RESULTS} of ${files.length} files]` : ''
      const text = (shown.length ? shown.join('\n') : 'no files match') + note
      const effect = {
        kind: 'search',
        path: base.shown,
        pattern,
        matches: files.length,
        files: files.length,
        truncated,
      } as const
      return withEffect(text, effect)
    },
  })
}

const compile = (pattern: string, flags: string): RegExp => {
  try {
    return new RegExp(pattern, flags)
  } catch (error) {
    throw new ToolRefusal(`invalid regular expression: ${(error as Error).message}`)
  }
}

export function grepTool(root: () => Promise<Root>, limits: ReadLimits & { grepTimeoutMs: number }): Tool {
  return builtinTool<GrepArgs>({
    name: 'grep',
    description:
      'Search the text files under the root for a regular expression (JavaScript syntax), line by line. Answers path:line:text. glob narrows the files (*.ts); binary files, .git and node_modules are skipped.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression' },
        path: { type: 'string', description: 'Directory or file to search (default: the root)' },
        glob: { type: 'string', description: 'Only files matching this glob' },
        ignore_case: { type: 'boolean' },
        max_results: { type: 'integer', minimum: 1, maximum: 2000, description: 'Most lines returned (default 200)' },
      },
      required: ['pattern'],
    },
    execute: async ({ pattern, path = '.', glob, ignore_case = false, max_results = 200 }, ctx) => {
      const flags = ignore_case ? 'i' : ''
      // Compiled here first, so a bad pattern is refused with the engine's reason.
      compile(pattern, flags)
      const r = await root()
      const { start, files } = await filesUnder(r, path, glob, ctx.signal)
      const job = {
        files,
        pattern,
        flags,
        maxFileBytes: limits.maxFileBytes,
        root: r.real,
        maxLineChars: MAX_LINE_CHARS,
        concurrency: READ_CONCURRENCY,
      }
      const found = await grepInWorker(job, ctx.signal, limits.grepTimeoutMs)
      const lines = found.flat()
      const matchedFiles = found.filter((f) => f.length > 0).length
      const truncated = lines.length > max_results
      const note = truncated ? `\n[first ${max_results} of ${lines.length} matching lines; narrow the search]` : ''
      const text = (lines.length ? lines.slice(0, max_results).join('\n') : 'no matches') + note
      const effect = {
        kind: 'search',
        path: start.shown,
        pattern,
        matches: lines.length,
        files: matchedFiles,
        truncated,
      } as const
      return withEffect(text, effect)
    },
  })
}
