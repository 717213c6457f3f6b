import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { scratchDir } from '../support/scratch-dir.js'

const guide = readFileSync(fileURLToPath(new URL('../../docs/testing.md', import.meta.url)), 'utf8')
// `// runnable` blocks, and the fragment that runs only here, on the repository's cassette.
const blocks = [...guide.matchAll(/```ts\n(\/\/ (?:runnable|fragment: runs in this repository.*)\n[\s\S]*?)```/g)].map(
  (m) => m[1] as string,
)

/** `console.log(...) // expected` lines: what each block promises to print, in order. */
const promised = (code: string): string[] =>
  [...code.matchAll(/^console\.log\(.*\) \/\/ (.*)$/gm)].map((m) => m[1] as string)

describe('docs/testing.md: the runnable examples run and print what they say', () => {
  afterEach(() => vi.restoreAllMocks())

  it('has runnable examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3)
  })

  blocks.forEach((code, i) => {
    it(`example ${i + 1} prints ${JSON.stringify(promised(code))}`, async () => {
      const file = join(scratchDir('nestor-guide-'), `example-${i + 1}.ts`)
      writeFileSync(file, code)
      const printed: string[] = []
      vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')))
      const cwd = process.cwd()
      process.chdir(fileURLToPath(new URL('../..', import.meta.url)))
      try {
        await import(file)
      } finally {
        process.chdir(cwd)
      }
      expect(printed).toEqual(promised(code))
    })
  })
})
