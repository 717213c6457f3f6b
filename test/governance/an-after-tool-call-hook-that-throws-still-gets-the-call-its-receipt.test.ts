import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'
import { toolEnds } from './support.js'

describe('an afterToolCall hook that throws', () => {
  it('fails the exec with hook_error, and the call that ran keeps its ok receipt, its tool_end and its result', async () => {
    let ran = 0
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran++
        return `echo ${text}`
      },
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'echo', args: { text: 'hi' }, id: 'c1' }), 'never reached']),
      model: 'm',
      hooks: {
        afterToolCall: () => {
          throw new Error('audit log down')
        },
      },
    })
    const { events, result } = await collect(runtime.exec('go', { tools: [echo] }))
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('hook_error')
    expect(ran).toBe(1)
    expect(result.receipts.map((r) => [r.toolCallId, r.status])).toEqual([['c1', 'ok']])
    const ends = toolEnds(events, 'echo')
    expect(ends).toHaveLength(1)
    expect(ends[0]?.receipt.status).toBe('ok')
    expect(historyProblems(result.history)).toEqual([])
    const answer = result.history.find((m) => m.role === 'toolResult')
    expect(answer).toMatchObject({ toolCallId: 'c1', isError: false, content: [{ type: 'text', text: 'echo hi' }] })
  })
})
