import { afterEach, describe, expect, it, vi } from 'vitest'
import { exampleOf, guide, runExample } from '../support/doc-example.js'

const text = guide('tracing.md')
const example = exampleOf(text, '// runnable')
/** The span names the guide says are printed, in order: the first word of each line of the block after the example. */
const shown = text
  .match(/children first:\n\n```\n([\s\S]*?)```/)?.[1]
  ?.trim()
  .split('\n')
  .map((l) => l.split(/\s{2,}/)[0]!.trim())

describe('docs/tracing.md', () => {
  afterEach(() => vi.restoreAllMocks())

  it('runs its example with the console span exporter, printing the span tree it shows and the answer', async () => {
    expect(example).toBeDefined()
    const spans: { name: string; parentSpanContext?: { spanId: string }; id: string }[] = []
    const printed: string[] = []
    vi.spyOn(console, 'dir').mockImplementation((item: unknown) => void spans.push(item as (typeof spans)[number]))
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')))
    await runExample(example!, 'tracing-guide-')
    expect(printed).toEqual(['Here is the summary.'])
    expect(spans.map((s) => s.name)).toEqual(shown)
    // The nested invoke_agent is the child of the research call; the research call of the root exec.
    const byName = (name: string) => spans.filter((s) => s.name === name)
    const [nested] = byName('invoke_agent research')
    const [rootAgent] = byName('invoke_agent')
    const tool = byName('execute_tool research')[0]!
    expect(nested!.parentSpanContext?.spanId).toBe(tool.id)
    expect(tool.parentSpanContext?.spanId).toBe(rootAgent!.id)
  })
})
