import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { repoRoot } from './packed-app.js'

/**
 * A TypeScript code block of the docs. Its first line says what it is: `// runnable` (a complete
 * program, run from the packed packages in a fresh app; `// runnable server` serves HTTP and is
 * run until it prints its URL) or `// fragment…` (an excerpt, visibly not a program).
 */
export type DocBlock = {
  /** Where it is: `docs/loop.md:29`. */
  where: string
  /** A file name for it: `docs-loop-1`. */
  name: string
  kind: 'runnable' | 'server' | 'fragment' | 'unmarked'
  code: string
  /** `console.log(...) // text` lines: what the program promises to print, in order. */
  promised: string[]
}

/** README.md, docs/*.md and every package's README.md. */
export function docFiles(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(repoRoot, 'docs', f))
  const readmes = readdirSync(join(repoRoot, 'packages')).map((p) => join(repoRoot, 'packages', p, 'README.md'))
  return [join(repoRoot, 'README.md'), ...docs, ...readmes.filter((f) => existsSync(f))]
}

export function docBlocks(files = docFiles()): DocBlock[] {
  const blocks: DocBlock[] = []
  for (const file of files) {
    const rel = relative(repoRoot, file)
    const lines = readFileSync(file, 'utf8').split('\n')
    let n = 0
    for (let i = 0; i < lines.length; i++) {
      if (!/^```(ts|tsx|typescript)\s*$/.test(lines[i]!)) continue
      const start = i + 1
      while (i + 1 < lines.length && !lines[i + 1]!.startsWith('```')) i++
      const code = lines.slice(start, i + 1).join('\n') + '\n'
      i++
      n++
      const first = code.split('\n')[0]!.trim()
      const kind =
        first === '// runnable'
          ? 'runnable'
          : first === '// runnable server'
            ? 'server'
            : first.startsWith('// fragment')
              ? 'fragment'
              : 'unmarked'
      blocks.push({
        where: `${rel}:${start}`,
        name: `${rel.replace(/\.md$/, '').replace(/[^a-z0-9]+/gi, '-')}-${n}`.toLowerCase(),
        kind,
        code,
        promised: [...code.matchAll(/^console\.log\(.*\) \/\/ (.*)$/gm)].map((m) => m[1]!),
      })
    }
  }
  return blocks
}

/** The bare module names a program imports (`@nestor/core`, `zod`, `node:http`). */
export function importsOf(code: string): string[] {
  return [...code.matchAll(/^\s*import\s[^'"]*?['"]([^'"]+)['"]/gm)].map((m) => m[1]!)
}
