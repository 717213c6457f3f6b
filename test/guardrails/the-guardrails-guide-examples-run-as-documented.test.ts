import { afterEach, describe, expect, it, vi } from 'vitest'
import { guide, runExample } from '../support/doc-example.js'

const text = guide('guardrails.md')
const blocks = [...text.matchAll(/```ts\n(\/\/ runnable\n[\s\S]*?)```/g)].map((m) => m[1]!)

describe('docs/guardrails.md', () => {
  afterEach(() => vi.restoreAllMocks())
  const printedBy = async (code: string, prefix: string) => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')))
    await runExample(code, prefix)
    return printed
  }

  it('has its three runnable examples', () => expect(blocks).toHaveLength(3))

  it('the first example trips on the SSN and rejects the refund over the limit, as its comments say', async () => {
    expect(await printedBy(blocks[0]!, 'guardrails-guide-')).toEqual([
      'failed guardrail_tripped',
      'completed rejected',
      '[{"name":"limit_amount","phase":"before","verdict":"reject","reason":"refunds over 100 need a manager"}]',
    ])
  })

  it('the output example asks again with the feedback', async () => {
    expect(await printedBy(blocks[1]!, 'guardrails-output-')).toEqual(['completed Your SSN is on file. 2'])
  })

  it('the classifier example trips, and its replay asks no model again', async () => {
    expect(await printedBy(blocks[2]!, 'guardrails-classifier-')).toEqual([
      'input guardrail on_topic tripped: the request is about cooking',
      'guardrail_tripped 1',
    ])
  })
})
