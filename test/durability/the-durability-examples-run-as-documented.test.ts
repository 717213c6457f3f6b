import { describe, expect, it } from 'vitest'
import { main as replay } from '../../examples/durability/replay.js'
import { main as wholeTreePause } from '../../examples/durability/whole-tree-pause.js'

describe('the examples docs/durability.md runs', () => {
  it('replay: the second run on the file journal asks no model and charges nothing more', async () => {
    const lines: string[] = []
    const { first, second, modelCalls, charged } = await replay((l) => lines.push(l))
    expect(second.history).toEqual(first.history)
    expect(modelCalls).toHaveLength(4)
    expect(charged).toEqual([120])
    expect(lines).toContain('  tool_end (replayed)')
    expect(lines).toContain('tool_end') // the body that opened the child ran again
  })

  it('whole-tree pause: the root pauses on the depth-1 call and one resume from JSON finishes the tree', async () => {
    const { paused, done, charged, modelCalls } = await wholeTreePause(() => {})
    expect(paused.status).toBe('paused')
    expect(paused.pending?.approvals.map((a) => [a.toolName, a.depth])).toEqual([['charge', 1]])
    expect(done.status).toBe('completed')
    expect(charged).toEqual([120])
    expect(modelCalls).toHaveLength(4)
  })
})
