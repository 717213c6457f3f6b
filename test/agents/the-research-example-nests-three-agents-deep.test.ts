import type { EventOf } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/research/main.js'

describe('examples/research', () => {
  it('runs offline: the editor calls the researcher, whose nested exec calls the fact checker as a tool', async () => {
    const lines: string[] = []
    const { result, events } = await main((line) => lines.push(line))

    expect(result.status).toBe('completed')
    expect(result.text).toMatch(/^Brief\. Findings on decorators: .* Fact check: verified: TC39 decorators/)
    const starts = events.filter((e): e is EventOf<'agent_start'> => e.type === 'agent_start')
    expect(starts.map((e) => [e.depth, e.toolNames])).toEqual([
      [0, ['search', 'investigate']],
      [1, ['search', 'fact_check']],
      [2, ['lookup']],
    ])
    // Each child's parent is the exec one level up.
    expect(starts[1]!.parentExecId).toBe(starts[0]!.execId)
    expect(starts[2]!.parentExecId).toBe(starts[1]!.execId)
    const calls = events
      .filter((e): e is EventOf<'tool_end'> => e.type === 'tool_end')
      .map((e) => [e.depth, e.toolName, e.isError])
    expect(calls).toEqual([
      [1, 'search', false],
      [2, 'lookup', false],
      [1, 'fact_check', false],
      [0, 'investigate', false],
    ])
    // The printout indents by depth.
    expect(lines.some((l) => l.startsWith('    → lookup('))).toBe(true)
  })
})
