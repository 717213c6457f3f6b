import { afterEach, describe, expect, it, vi } from 'vitest'
import { exampleOf, guide, runExample } from '../support/doc-example.js'

const text = guide('cost.md')
const blocks = [...text.matchAll(/```ts\n(\/\/ runnable\n[\s\S]*?)```/g)].map((m) => m[1]!)

describe('docs/cost.md', () => {
  afterEach(() => vi.restoreAllMocks())
  const printedBy = async (code: string, prefix: string) => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation(
      (...args: unknown[]) =>
        void printed.push(
          args.map((a) => (typeof a === 'string' || a === undefined ? String(a) : JSON.stringify(a))).join(' '),
        ),
    )
    await runExample(code, prefix)
    return printed
  }

  it('the budget example stops before the third call, as its comments say', async () => {
    expect(exampleOf(text, '// runnable')).toBe(blocks[0])
    expect(await printedBy(blocks[0]!, 'cost-guide-')).toEqual(['failed budget_exceeded', '0.0090', '2'])
  })

  it('the catalogue example prints the window and prices it shows', async () => {
    expect(await printedBy(blocks[1]!, 'cost-catalogue-')).toEqual(['200000', '3 15 0.3 3.75', '200000 6', 'undefined'])
  })
})
