import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from './packed-app.js'

// A path the docs name in backticks must exist: a reader who opens it finds the file. Built and
// generated output (dist/, bundle/, test-results/), placeholders (`<provider>/`) and
// shortened names (`test/web/a-slow-reader-…`) are not checked.
const TOP = /^(packages|docs|bench|test|scripts|examples|\.ci|\.changeset)\//
const FILE = /\.(ts|mjs|js|json|md|yaml|yml|sql)$/

function markdownUnder(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist' || name === 'bundle') continue
    if (statSync(path).isDirectory()) markdownUnder(path, into)
    else if (name.endsWith('.md')) into.push(path)
  }
  return into
}

function documents(): string[] {
  const packages = readdirSync(join(repoRoot, 'packages')).map((p) => join(repoRoot, 'packages', p))
  return [
    join(repoRoot, 'README.md'),
    join(repoRoot, 'bench/README.md'),
    ...markdownUnder(join(repoRoot, 'docs')),
    ...packages.flatMap((p) => [join(p, 'README.md'), ...markdownUnder(join(p, 'src'))]),
  ].filter((path) => existsSync(path))
}

/** Where a path may be written from: the repository, the document's folder, or a package's src/. */
function bases(doc: string): string[] {
  const sources = readdirSync(join(repoRoot, 'packages')).map((p) => join(repoRoot, 'packages', p, 'src'))
  return [repoRoot, dirname(doc), ...sources]
}

function deadPaths(doc: string): string[] {
  const dead: string[] = []
  for (const [, token] of readFileSync(doc, 'utf8').matchAll(/`([^`\s]+)`/g)) {
    const path = token!.replace(/[,.:;]+$/, '')
    if (!path.includes('/') || path.includes('://') || /^[@/~]/.test(path) || /[<>{}*$|=()'"…]/.test(path)) continue
    if (/(^|\/)(dist|bundle|test-results|node_modules)\//.test(path)) continue
    if (TOP.test(path)) {
      if (!existsSync(join(repoRoot, path))) dead.push(path)
    } else if (FILE.test(path) && !bases(doc).some((base) => existsSync(join(base, path)))) dead.push(path)
  }
  return dead.map((path) => `${relative(repoRoot, doc)}: ${path}`)
}

describe('the paths the docs name', () => {
  it('exist in the repository (docs/, READMEs, bench/README.md, the src folder READMEs)', () => {
    const docs = documents()
    expect(docs.length).toBeGreaterThan(20)
    expect(docs.flatMap(deadPaths)).toEqual([])
  })
})
