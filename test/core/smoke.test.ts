import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'

describe('smoke', () => {
  it('runs a tool round trip', async () => {
    const add = defineTool({ name: 'add', description: 'Add', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b })
    const provider = scripted([
      { content: [{ type: 'toolCall', id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }] },
      'The sum is 5',
    ])
    const runtime = new Runtime({ provider, model: 'm' })
    const run = runtime.exec('add 2 and 3', { tools: [add] })
    const types: string[] = []
    for await (const e of run) types.push(e.type)
    const result = await run
    expect(result.status).toBe('completed')
    expect(result.text).toBe('The sum is 5')
    expect(result.history.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant'])
    console.log(types.join(' '))
  })
})
