import { afterEach, describe, expect, it, vi } from 'vitest'
import { exampleOf, guide, runExample } from '../support/doc-example.js'

const example = exampleOf(
  guide('mcp.md'),
  '// fragment (a whole program, which test/mcp runs from the repo): a bearer-token server and its client',
)

describe('docs/mcp.md, Security', () => {
  afterEach(() => vi.restoreAllMocks())

  it('the bearer-token example serves over HTTP, lets its own client in and prints the sum', async () => {
    expect(example).toBeDefined()
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')))
    await runExample(example!, 'mcp-guide-')
    expect(printed).toEqual(['[{"type":"text","text":"5"}]'])
  })
})
