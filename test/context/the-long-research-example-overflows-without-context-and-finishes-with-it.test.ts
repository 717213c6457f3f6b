import { describe, expect, it } from 'vitest'
import { main } from '../../examples/context/long-research.js'
import { historyProblems } from '../support/run.js'

describe('examples/context/long-research.ts', () => {
  it('fails on the window without context, and reads all 120 pages with it', async () => {
    const lines: string[] = []
    const { without, with: result, compactions } = await main((line) => lines.push(line))
    expect(without.status).toBe('failed')
    expect(without.error?.message).toMatch(/prompt is too long: \d+ tokens > 8000 maximum/)
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Read all 120 pages.')
    expect(result.receipts).toHaveLength(120)
    expect(compactions).toBeGreaterThan(5)
    expect(historyProblems(result.history)).toEqual([])
    // The last summary still names the first page: nothing was forgotten on the way.
    const summary = JSON.stringify(result.history[1])
    expect(summary).toMatch(/pages read: 1, 2, 3/)
    expect(lines.at(-2)).toMatch(/^with context: completed/)
  })
})
