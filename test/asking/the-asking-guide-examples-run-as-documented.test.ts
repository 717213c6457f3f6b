import { afterEach, describe, expect, it, vi } from 'vitest'
import { guide, runExample } from '../support/doc-example.js'

const blocks = [...guide('asking.md').matchAll(/```ts\n(\/\/ runnable\n[\s\S]*?)```/g)].map((m) => m[1]!)

describe('docs/asking.md', () => {
  afterEach(() => vi.restoreAllMocks())
  const printedBy = async (code: string, prefix: string) => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation(
      (...args: unknown[]) =>
        void printed.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')),
    )
    await runExample(code, prefix)
    return printed
  }

  it('the refund pauses, refuses a bad answer, and resumes from JSON with a good one, as its comments say', async () => {
    expect(await printedBy(blocks[0]!, 'asking-guide-')).toEqual([
      'paused The refund of 250 EUR is over the limit. Go ahead?',
      'invalid_options',
      'completed [{"type":"text","text":"refunded 250 EUR (goodwill)"}]',
      'body runs: 2',
    ])
  })

  it('the in-process handler gets the question and answers it', async () => {
    expect(await printedBy(blocks[1]!, 'asking-handler-')).toEqual([
      'Which account? 0 {"account":{"type":"string","enum":["personal","work"]}}',
      '{"type":"text","text":"billed to work"}',
    ])
  })
})
