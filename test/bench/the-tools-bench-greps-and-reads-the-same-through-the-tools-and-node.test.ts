import { describe, expect, it } from 'vitest'
import { toolsBench } from '../../bench/tools.js'

// The tools bench on a small tree: both sides must find the same (the bench throws otherwise); its timings are the bench's business.
describe('the tools bench', () => {
  it('greps a tree and reads a 10 MB file through the tools and through Node, finding the same', async () => {
    const report = await toolsBench(150, 1)
    expect(report.files).toBe(150)
    expect(report.matches).toBe(3)
    expect(report.grep.node).toBeGreaterThan(0)
    expect(report.read.tool).toBeGreaterThan(0)
  })
})
