import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'

describe('a batch whose beforeToolCall hook throws', () => {
  it('emits tool_end with a skipped receipt for that call, returns it beside the hook_error, and runs nothing more', async () => {
    let ran = 0
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran++
        return text
      },
    })
    const runtime = new Runtime({
      provider: scripted([]),
      model: 'm',
      hooks: {
        beforeToolCall: () => {
          throw new Error('policy service down')
        },
      },
    })
    const events: AgentEvent[] = []
    runtime.on('*', (e) => events.push(e))
    const batch = await runtime.runBatch(
      [
        { tool: 'echo', args: { text: 'a' }, callKey: 'first' },
        { tool: 'echo', args: { text: 'b' }, callKey: 'second' },
      ],
      { tools: [echo] },
    )
    expect(ran).toBe(0)
    expect(batch.error?.code).toBe('hook_error')
    expect(batch.receipts.map((r) => [r.callKey, r.status])).toEqual([['first', 'skipped']])
    const starts = events.filter((e) => e.type === 'tool_start')
    const ends = events.filter((e) => e.type === 'tool_end')
    expect(starts).toHaveLength(1)
    expect(ends.map((e) => e.receipt.status)).toEqual(['skipped'])
    expect(ends[0]?.receipt.callKey).toBe('first')
  })
})
