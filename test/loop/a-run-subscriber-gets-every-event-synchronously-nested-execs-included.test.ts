import { describe, expect, it, vi } from 'vitest'
import { Runtime, defineTool, exec, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

// The outer model asks `ask` once; its body opens a child exec; both answer in text.
function nestedRuntime() {
  const provider = scripted((request) => {
    const last = request.messages[request.messages.length - 1]
    if (last?.role === 'user' && last.content === 'outer')
      return { content: [{ type: 'toolCall', id: 'call_ask', name: 'ask', arguments: { q: 'inner' } }] }
    return last?.role === 'toolResult' ? 'outer done' : 'inner done'
  })
  const ask = defineTool({
    name: 'ask',
    description: 'Ask a child',
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => (await exec(q, { toolset: 'none' })).text,
  })
  return { runtime: new Runtime({ provider, model: 'm' }), tools: [ask] }
}

describe('run.subscribe', () => {
  it('gets the events already published and every later one, nested included, in the order the iterator reads them', async () => {
    const { runtime, tools } = nestedRuntime()
    const run = runtime.exec('outer', { tools })
    const seen: AgentEvent[] = []
    const unsubscribe = run.subscribe((event) => seen.push(event))
    const iterated: AgentEvent[] = []
    for await (const event of run) iterated.push(event)
    const result = await run
    expect(result.text).toBe('outer done')
    expect(seen).toEqual(iterated)
    expect(seen[0]!.type).toBe('agent_start')
    expect(seen.filter((e) => e.type === 'agent_start').map((e) => e.depth)).toEqual([0, 1])
    expect(seen[seen.length - 1]!.type).toBe('agent_end')
    unsubscribe()
  })

  it('stops at unsubscribe, and a listener that throws is reported once and does not stop the run', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined)
    try {
      const { runtime, tools } = nestedRuntime()
      const run = runtime.exec('outer', { tools })
      let calls = 0
      run.subscribe(() => {
        calls++
        throw new Error('listener bug')
      })
      const types: string[] = []
      const unsubscribe = run.subscribe((event) => {
        types.push(event.type)
        if (event.type === 'tool_start') unsubscribe()
      })
      const result = await run
      expect(result.status).toBe('completed')
      expect(calls).toBeGreaterThan(5)
      expect(warn).toHaveBeenCalledTimes(1)
      expect(String(warn.mock.calls[0]![0])).toContain('listener bug')
      expect(types[types.length - 1]).toBe('tool_start')
      // Subscribing to a finished run gives what it still keeps, from agent_start to agent_end.
      const late: string[] = []
      run.subscribe((event) => late.push(event.type))
      expect(late[0]).toBe('agent_start')
      expect(late[late.length - 1]).toBe('agent_end')
    } finally {
      warn.mockRestore()
    }
  })
})
