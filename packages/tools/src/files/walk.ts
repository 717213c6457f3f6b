import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

/** Directories no search descends into unless the search starts inside them. */
export const SKIPPED_DIRS = new Set(['.git', 'node_modules'])

export type WalkEntry = { real: string; rel: string }

/**
 * Every regular file under `dir` (`rel` is root-relative with `/`), without following symlinks:
 * a symlinked file or directory is never read through, so a search cannot leave the root. Sibling
 * directories are read in parallel (a tree of thousands of files is mostly waiting on readdir).
 */
export async function walkFiles(dir: string, relDir: string, signal?: AbortSignal): Promise<WalkEntry[]> {
  const out: WalkEntry[] = []
  const visit = async (real: string, rel: string): Promise<void> => {
    signal?.throwIfAborted()
    const entries = await readdir(real, { withFileTypes: true }).catch(() => [])
    const subdirs: Promise<void>[] = []
    for (const entry of entries) {
      const childRel = rel === '.' ? entry.name : `${rel}/${entry.name}`
      if (entry.isFile()) out.push({ real: join(real, entry.name), rel: childRel })
      else if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name))
        subdirs.push(visit(join(real, entry.name), childRel))
    }
    await Promise.all(subdirs)
  }
  await visit(dir, relDir)
  return out.sort((x, y) => (x.rel < y.rel ? -1 : x.rel > y.rel ? 1 : 0))
}
