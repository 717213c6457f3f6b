import { lstat, readdir, realpath } from 'node:fs/promises'
import { join } from 'node:path'
import type { Tool } from '@nestor/core'
import { builtinTool, ToolRefusal, withEffect } from '../define.js'
import type { Root } from './confine.js'
import { SKIPPED_DIRS } from './walk.js'

type ListArgs = { path?: string; recursive?: boolean }

const MAX_ENTRIES = 1000

/** One line per entry: `dir/`, `file  123 B`, `link -> target` (or `-> outside the root`). */
async function describe(root: Root, real: string, rel: string, name: string): Promise<string> {
  const path = join(real, name)
  const stat = await lstat(path).catch(() => undefined)
  if (!stat) return `${rel}${name}  (vanished)`
  if (stat.isDirectory()) return `${rel}${name}/`
  if (stat.isSymbolicLink()) {
    const target = await realpath(path).catch(() => undefined)
    if (target === undefined) return `${rel}${name} -> (points nowhere)`
    try {
      root.mustContain(name, target)
      return `${rel}${name} -> ${root.show(target)}`
    } catch {
      return `${rel}${name} -> (outside the root: refused)`
    }
  }
  return `${rel}${name}  ${stat.size} B`
}

export function listFilesTool(root: () => Promise<Root>): Tool {
  return builtinTool<ListArgs>({
    name: 'list_files',
    description:
      'List a directory under the root: directories end in /, files show their size, symlinks their target. recursive lists the whole tree (without .git and node_modules).',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Directory relative to the root (default: the root)' },
        recursive: { type: 'boolean', description: 'List subdirectories too' },
      },
    },
    execute: async ({ path = '.', recursive = false }) => {
      const r = await root()
      const dir = await r.existing(path)
      if (!(await lstat(dir.real)).isDirectory()) throw new ToolRefusal(`${dir.shown} is not a directory`)
      const lines: string[] = []
      let truncated = false
      const visit = async (real: string, rel: string): Promise<void> => {
        const names = (await readdir(real)).sort()
        for (const name of names) {
          if (lines.length >= MAX_ENTRIES) return void (truncated = true)
          lines.push(await describe(r, real, rel, name))
          if (recursive && lines.at(-1)!.endsWith('/') && !SKIPPED_DIRS.has(name))
            await visit(join(real, name), `${rel}${name}/`)
        }
      }
      await visit(dir.real, '')
      const note = truncated ? `\n[first ${MAX_ENTRIES} entries; list a subdirectory for more]` : ''
      const text = (lines.length ? lines.join('\n') : '(empty directory)') + note
      return withEffect(text, { kind: 'list', path: dir.shown, entries: lines.length, truncated })
    },
  })
}
