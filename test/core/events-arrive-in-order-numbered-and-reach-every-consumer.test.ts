import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
})

describe('events', () => {
  it('a tool round trip emits events in the documented order', async () => {
    const provider = scripted([calls({ name: 'echo', args: { text: 'hi' } }), 'done'], { chunkSize: 100 })
    const { events } = await collect(new Runtime({ provider, model: 'm' }).exec('go', { tools: [echo] }))
    expect(events.map((e) => e.type)).toEqual([
      'agent_start',
      'message_start',
      'message_end', // the user input
      'turn_start',
      'message_start',
      'message_delta',
      'message_delta',
      'message_end', // assistant: call start + arguments
      'tool_start',
      'tool_end',
      'message_start',
      'message_end', // tool result
      'turn_end',
      'turn_start',
      'message_start',
      'message_delta',
      'message_end',
      'turn_end',
      'agent_end',
    ])
  })

  it('seq numbers one exec totally, from 0 without gaps, and every event carries the common fields', async () => {
    const provider = scripted([calls({ name: 'echo', args: { text: 'a' } }), 'fin'])
    const { events, result } = await collect(new Runtime({ provider, model: 'm' }).exec('go', { tools: [echo] }))
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i))
    for (const e of events) {
      expect(e.execId).toBe(result.execId)
      expect(e.depth).toBe(0)
      expect(e.parentExecId).toBeUndefined()
      expect(typeof e.timestamp).toBe('number')
    }
    const timestamps = events.map((e) => e.timestamp)
    expect([...timestamps].sort((a, b) => a - b)).toEqual(timestamps)
  })

  it('a consumer that starts iterating after the run finished still sees every event', async () => {
    const provider = scripted(['hello'])
    const run = new Runtime({ provider, model: 'm' }).exec('go')
    const result = await run
    const late: AgentEvent[] = []
    for await (const e of run) late.push(e)
    expect(late[0]?.type).toBe('agent_start')
    expect(late.at(-1)?.type).toBe('agent_end')
    const end = late.at(-1) as Extract<AgentEvent, { type: 'agent_end' }>
    expect(end.result.text).toBe(result.text)
  })

  it('runtime.on delivers one type or every event, and its unsubscribe stops delivery', async () => {
    const runtime = new Runtime({ provider: scripted(['one', 'two']), model: 'm' })
    const ends: string[] = []
    const all: string[] = []
    runtime.on('agent_end', (e) => ends.push(e.result.text))
    const off = runtime.on('*', (e) => all.push(e.type))
    await runtime.exec('first')
    off()
    await runtime.exec('second')
    expect(ends).toEqual(['one', 'two'])
    expect(all[0]).toBe('agent_start')
    expect(all.at(-1)).toBe('agent_end')
    expect(all.filter((t) => t === 'agent_end')).toHaveLength(1)
  })

  it('text deltas concatenate to the final answer', async () => {
    const provider = scripted(['The quick brown fox jumps'], { chunkSize: 3 })
    const { events, result } = await collect(new Runtime({ provider, model: 'm' }).exec('go'))
    const text = events
      .flatMap((e) => (e.type === 'message_delta' && e.delta.kind === 'text' ? [e.delta.text] : []))
      .join('')
    expect(text).toBe('The quick brown fox jumps')
    expect(result.text).toBe(text)
  })

  it('a throwing event listener does not break the loop', async () => {
    const runtime = new Runtime({ provider: scripted(['ok']), model: 'm' })
    runtime.on('turn_start', () => {
      throw new Error('listener bug')
    })
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.message)
    process.on('warning', onWarning)
    const result = await runtime.exec('go')
    await new Promise((r) => setImmediate(r))
    process.off('warning', onWarning)
    expect(result.status).toBe('completed')
    expect(warnings.some((w) => w.includes('listener bug'))).toBe(true)
  })
})
