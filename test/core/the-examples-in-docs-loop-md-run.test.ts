import { describe, expect, it } from 'vitest'
import { main as basic } from '../../examples/loop/basic.js'
import { main as nested } from '../../examples/loop/nested.js'
import { main as steering } from '../../examples/loop/steering.js'

describe('the examples docs/loop.md runs', () => {
  it('basic: one tool round trip', async () => {
    const lines: string[] = []
    const result = await basic((l) => lines.push(l))
    expect(result.text).toBe('The answer is 42.')
    expect(lines).toContain('turn 2/20')
  })

  it('nested: child events stream up with depth and parent id', async () => {
    const events = await nested(() => {})
    const child = events.filter((e) => e.depth === 1)
    expect(child.length).toBeGreaterThan(0)
    expect(new Set(child.map((e) => e.parentExecId)).size).toBe(1)
    expect(child[0]?.parentExecId).toBe(events[0]?.execId)
  })

  it('steering skips the queued call and follow-up continues the loop', async () => {
    const lines: string[] = []
    const result = await steering((l) => lines.push(l))
    expect(lines.filter((l) => l.includes('skipped'))).toHaveLength(1)
    expect(result.text).toBe('You are welcome.')
  })
})
