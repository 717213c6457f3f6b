import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { guide } from '../support/doc-example.js'
import { scratchDir } from '../support/scratch-dir.js'

const blocks = [...guide('handoffs.md').matchAll(/```ts\n(\/\/ runnable\n[\s\S]*?)```/g)].map((m) => m[1] as string)

/** `console.log(...) // expected` lines: what each block promises to print, in order. */
const promised = (code: string): string[] => [...code.matchAll(/^.*console\.log\(.*\) \/\/ (.*)$/gm)].map((m) => m[1]!)

describe('docs/handoffs.md: the runnable examples run and print what they say', () => {
  afterEach(() => vi.restoreAllMocks())

  it('has runnable examples', () => expect(blocks.length).toBe(2))

  blocks.forEach((code, i) => {
    it(`example ${i + 1} prints ${JSON.stringify(promised(code))}`, async () => {
      const file = join(scratchDir('nestor-handoffs-guide-'), `example-${i + 1}.ts`)
      writeFileSync(file, code)
      const printed: string[] = []
      vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')))
      await import(file)
      expect(printed).toEqual(promised(code))
    })
  })
})
