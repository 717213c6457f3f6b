import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { docBlocks, importsOf } from './doc-blocks.js'
import { docsAppPackages } from './docs-app.js'
import { repoRoot } from './packed-app.js'

const blocks = docBlocks()
const publicNames = docsAppPackages()
/** `@nestor/providers/openai` → `@nestor/providers`; `node:http` stays. */
const packageOf = (specifier: string) =>
  specifier.startsWith('node:')
    ? 'node:'
    : specifier.startsWith('@')
      ? specifier.split('/').slice(0, 2).join('/')
      : specifier.split('/')[0]!

// Fast and without packing: the rule the packed test (the-docs-programs-…) relies on.
describe('the code blocks of README.md, docs/ and the package READMEs', () => {
  it('are each `// runnable` (a whole program), `// runnable server` or visibly `// fragment…`', () => {
    expect(blocks.length).toBeGreaterThan(40)
    expect(blocks.filter((b) => b.kind === 'unmarked').map((b) => b.where)).toEqual([])
  })

  it('import, when runnable, only packages a fresh app installs: @nestor/*, zod, the openai SDK, node builtins…', () => {
    const foreign = blocks
      .filter((b) => b.kind === 'runnable' || b.kind === 'server')
      .flatMap((b) => importsOf(b.code).map((s) => ({ where: b.where, s, pkg: packageOf(s) })))
      .filter(({ pkg }) => pkg !== 'node:' && !publicNames.has(pkg))
    expect(foreign).toEqual([])
  })
})

// The repository's own apps (`pnpm demo`, `pnpm web`, `pnpm conformance`, `pnpm eval`, `pnpm coding-agent`)
// share the demo's model, agents or live-provider choice; every other example is a directory that
// can be copied out as is.
const repoApps = new Set(['demo', 'web', 'conformance', 'evals', 'coding-agent'])
const exampleFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist') return []
    return statSync(path).isDirectory() ? exampleFiles(path) : path.endsWith('.ts') ? [path] : []
  })

describe('examples/', () => {
  it('import only public package names and files of their own example directory', () => {
    const root = join(repoRoot, 'examples')
    const outside = exampleFiles(root).flatMap((file) => {
      const own = relative(root, file).split('/')[0]!
      if (repoApps.has(own)) return []
      return importsOf(readFileSync(file, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .filter((s) => relative(join(root, own), resolve(dirname(file), s)).startsWith('..'))
        .map((s) => `${relative(repoRoot, file)} imports ${s}`)
    })
    expect(outside).toEqual([])
  })
})
