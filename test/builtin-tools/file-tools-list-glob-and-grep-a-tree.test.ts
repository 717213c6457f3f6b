import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileTools } from '@nestor/tools'
import { scratchDir } from '../support/scratch-dir.js'
import { call } from './call.js'

function tree() {
  const root = scratchDir('nestor-search-')
  const files: Record<string, string> = {
    'README.md': '# Demo\nTODO: write docs\n',
    'src/add.ts': 'export const add = (a: number, b: number) => a - b // TODO fix\n',
    'src/util/strings.ts': 'export const upper = (s: string) => s.toUpperCase()\n',
    'src/util/strings.test.ts': "import { upper } from './strings'\n",
    'node_modules/dep/index.js': '// TODO in a dependency\n',
    '.git/config': 'TODO in git\n',
    'docs/a b.md': 'spaces in names: todo\n',
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return { root, tools: fileTools({ root }) }
}

describe('list_files, glob and grep', () => {
  it('list one directory, or the tree without .git and node_modules contents', async () => {
    const { tools } = tree()
    expect((await call(tools, 'list_files', {})).text).toBe('.git/\nREADME.md  24 B\ndocs/\nnode_modules/\nsrc/')
    expect((await call(tools, 'list_files', { path: 'src', recursive: true })).text).toBe(
      'add.ts  63 B\nutil/\nutil/strings.test.ts  34 B\nutil/strings.ts  52 B',
    )
    expect(await call(tools, 'list_files', { path: 'README.md' })).toMatchObject({
      isError: true,
      text: 'README.md is not a directory',
    })
  })

  it('glob by name at any depth, by path with ** and {a,b}, under a directory', async () => {
    const { tools } = tree()
    expect((await call(tools, 'glob', { pattern: '*.ts' })).text).toBe(
      'src/add.ts\nsrc/util/strings.test.ts\nsrc/util/strings.ts',
    )
    expect((await call(tools, 'glob', { pattern: 'src/**/*.test.ts' })).text).toBe('src/util/strings.test.ts')
    expect((await call(tools, 'glob', { pattern: '**/*.{md,js}' })).text).toBe('README.md\ndocs/a b.md')
    expect((await call(tools, 'glob', { pattern: 'util/s?rings.ts', path: 'src' })).text).toBe('src/util/strings.ts')
    expect((await call(tools, 'glob', { pattern: '*.py' })).text).toBe('no files match')
  })

  it('grep lines by regular expression, case-insensitively, narrowed by glob and path, capped', async () => {
    const { tools } = tree()
    const all = await call(tools, 'grep', { pattern: 'TODO' })
    expect(all.text).toBe(
      'README.md:2:TODO: write docs\nsrc/add.ts:1:export const add = (a: number, b: number) => a - b // TODO fix',
    )
    expect(all.effect).toMatchObject({ kind: 'search', matches: 2, files: 2, truncated: false })
    expect((await call(tools, 'grep', { pattern: 'todo', ignore_case: true, glob: '*.md' })).text).toBe(
      'README.md:2:TODO: write docs\ndocs/a b.md:1:spaces in names: todo',
    )
    expect((await call(tools, 'grep', { pattern: '^export', path: 'src/util' })).text).toBe(
      'src/util/strings.ts:1:export const upper = (s: string) => s.toUpperCase()',
    )
    expect((await call(tools, 'grep', { pattern: 'upper', path: 'src/util/strings.ts' })).text).toBe(
      'src/util/strings.ts:1:export const upper = (s: string) => s.toUpperCase()',
    )
    expect((await call(tools, 'grep', { pattern: 'e', max_results: 1 })).text).toMatch(
      /^README\.md:1:# Demo\n\[first 1 of \d+ matching lines; narrow the search\]$/,
    )
    expect(await call(tools, 'grep', { pattern: '(' })).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^invalid regular expression/),
    })
  })
})

describe('a grep pattern that backtracks without end', () => {
  it('is stopped in its worker at grepTimeoutMs, with an error result that says why', async () => {
    const root = scratchDir('nestor-redos-')
    writeFileSync(join(root, 'a.txt'), `${'a'.repeat(64)}!\n`)
    expect(await call(fileTools({ root, grepTimeoutMs: 300 }), 'grep', { pattern: '^(a+)+$' })).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^grep stopped after 300 ms: narrow the path, or simplify the pattern/),
    })
    // The app's thread was free all along, and the tools still answer.
    expect((await call(fileTools({ root }), 'grep', { pattern: 'a!' })).text).toBe(`a.txt:1:${'a'.repeat(64)}!`)
  })
})

describe('a grep aborted with its exec', () => {
  it('stops its worker and answers the abort', async () => {
    const root = scratchDir('nestor-redos-')
    writeFileSync(join(root, 'a.txt'), `${'a'.repeat(64)}!\n`)
    const controller = new AbortController()
    const pending = call(fileTools({ root }), 'grep', { pattern: '^(a+)+$' }, controller.signal)
    // Later than the walk, most likely while the worker backtracks; the answer is the same either way
    // (without the worker's stop on abort the call would wait for grepTimeoutMs, 30 s, past this test's limit).
    setTimeout(() => controller.abort(new Error('the exec was aborted')), 100)
    expect(await pending).toEqual({ isError: true, text: 'the exec was aborted' })
  })
})
