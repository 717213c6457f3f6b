import { Runtime, defineTool, exec } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls, collect } from '../support/run.js'

describe('nested exec events', () => {
  it('carry parentToolCallId: the id of the parallel call whose body opened the exec', async () => {
    const ask = defineTool({
      name: 'ask',
      description: 'd',
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) => (await exec(`child ${q}`)).text,
    })
    const provider = scripted((request) => {
      const first = request.messages[0]
      if (first?.role === 'user' && typeof first.content === 'string' && first.content.startsWith('child'))
        return `answer to ${first.content}`
      return request.messages.some((m) => m.role === 'toolResult')
        ? 'done'
        : calls({ name: 'ask', args: { q: 'a' } }, { name: 'ask', args: { q: 'b' } })
    })
    const runtime = new Runtime({ provider, model: 'm', toolExecution: 'parallel' })
    const { events } = await collect(runtime.exec('go', { tools: [ask] }))
    const starts = events.filter((e) => e.type === 'tool_start' && e.depth === 0)
    expect(starts).toHaveLength(2)
    for (const start of starts) {
      if (start.type !== 'tool_start') continue
      const q = String(start.args['q'])
      const child = events.find(
        (e) => e.type === 'agent_start' && e.depth === 1 && JSON.stringify(e.input).includes(`child ${q}`),
      )
      expect(child?.parentToolCallId).toBe(start.toolCallId)
      const childEvents = events.filter((e) => e.execId === child?.execId)
      expect(childEvents.every((e) => e.parentToolCallId === start.toolCallId)).toBe(true)
    }
    expect(events.filter((e) => e.depth === 0).every((e) => e.parentToolCallId === undefined)).toBe(true)
  })
})
