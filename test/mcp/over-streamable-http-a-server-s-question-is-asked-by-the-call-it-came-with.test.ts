import { Runtime, defineTool, type InputRequest } from '@nestor/core'
import { mcpTools, serveMcp } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'

// MCP's elicitation names no call. Over Streamable HTTP serveMcp sends it on the asking call's own
// stream with an event id, and mcpTools hands it to that call's ctx.ask, not to the oldest call.
it("a server's question, with an older call still in flight on the same server, is asked by the call it came with", async () => {
  let release = () => {}
  const hold = defineTool({
    name: 'hold',
    description: 'Runs until released',
    parameters: z.object({}),
    execute: () => new Promise<string>((resolve) => (release = () => resolve('released'))),
  })
  const seat = defineTool({
    name: 'seat',
    description: 'Asks which seat',
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      const schema = { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] }
      const answer = (await ctx.ask('Which seat?', schema)) as { seat: string }
      return `seat ${answer.seat}`
    },
  })
  const server = new Runtime({ provider: scripted([]), model: 'm' })
  const serving = await serveMcp({ runtime: server, tools: [hold, seat] }, { http: true, port: 0 })
  const mcp = await mcpTools({ url: serving.url! })
  try {
    const askedBy: string[] = []
    const ask = (request: InputRequest) => {
      askedBy.push(request.toolCallId)
      release()
      return { seat: '12A' }
    }
    const provider = scripted([calls({ name: 'hold', id: 'call_hold' }, { name: 'seat', id: 'call_seat' }), 'done'])
    const result = await new Runtime({ provider, model: 'm', ask, toolExecution: 'parallel' }).exec('hold, then seat', {
      tools: mcp.tools,
    })
    expect(result.status).toBe('completed')
    expect(askedBy).toEqual(['call_seat'])
  } finally {
    release()
    await mcp.close()
    await serving.close()
  }
})
