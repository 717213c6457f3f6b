import { expect, it } from 'vitest'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'

it("result.receipts follow the calls' order; tool_end events follow the order they finished in", async () => {
  // The first call can only finish after the second has: completion order is the reverse of call order.
  let secondDone!: () => void
  const second = new Promise<void>((resolve) => (secondDone = resolve))
  const first = defineTool({
    name: 'first',
    description: 'Waits for the second',
    parameters: { type: 'object', properties: {} },
    execute: async () => (await second, 'first'),
  })
  const other = defineTool({
    name: 'second',
    description: 'Finishes at once',
    parameters: { type: 'object', properties: {} },
    execute: () => (secondDone(), 'second'),
  })
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'first', id: 'a' }, { name: 'second', id: 'b' }), 'done']),
    model: 'm',
    toolExecution: 'parallel',
  })
  const { events, result } = await collect(runtime.exec('go', { tools: [first, other] }))
  const ended = events.flatMap((e) => (e.type === 'tool_end' ? [e.toolCallId] : []))
  expect(ended).toEqual(['b', 'a'])
  expect(result.receipts.map((r) => r.toolCallId)).toEqual(['a', 'b'])
})
