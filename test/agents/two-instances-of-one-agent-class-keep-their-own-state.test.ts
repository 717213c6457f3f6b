import { Agent, tool } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call } from '../support/agent-runs.js'

class Counter extends Agent {
  instructions = 'You count.'
  count = 0
  constructor(readonly label: string) {
    super()
  }

  @tool({ description: 'Add to the counter', parameters: z.object({ by: z.number() }) })
  add({ by }: { by: number }) {
    this.count += by
    return `${this.label}=${this.count}`
  }
}

describe('two instances of one Agent class', () => {
  it('each bind their tools to themselves: a call through one never touches the other', async () => {
    const a = new Counter('a')
    const b = new Counter('b')
    const runtime = new Runtime({
      provider: scripted([call('add', { by: 2 }), call('add', { by: 3 }), 'done']),
      model: 'm',
      duplicateCalls: 'allow',
    })
    const result = await runtime.exec('count', { tools: [b] })

    expect(result.status).toBe('completed')
    expect([a.count, b.count]).toEqual([0, 5])
    expect(result.messages.filter((m) => m.role === 'toolResult').map((m) => m.content[0])).toEqual([
      { type: 'text', text: 'b=2' },
      { type: 'text', text: 'b=5' },
    ])
  })

  it('have distinct method references, each carrying its own instance', async () => {
    const a = new Counter('a')
    const b = new Counter('b')
    expect(a.add).not.toBe(b.add)
    expect(a.tools[0]).not.toBe(b.tools[0])

    const runtime = new Runtime({ provider: scripted([call('add', { by: 7 }), 'done']), model: 'm' })
    await runtime.exec('count', { tools: [a.add] })
    expect([a.count, b.count]).toEqual([7, 0])
    // The reference is still a plain callable method bound to its instance.
    expect(b.add({ by: 1 })).toBe('b=1')
  })

  it('rejects a plain function in tools with invalid_options', () => {
    const runtime = new Runtime({ provider: scripted([]), model: 'm' })
    const plain = ({ by }: { by: number }) => by
    expect(() => runtime.exec('x', { tools: [plain] })).toThrow(expect.objectContaining({ code: 'invalid_options' }))
  })
})
