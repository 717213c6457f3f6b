import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The served process imports the built packages (dist/), as a user's would.
describe('serveMcp over stdio, driven by the SDK Client', () => {
  const client = new Client({ name: 'test', version: '1' })
  // Every message from the server, in the order it arrived. The SDK client hands a notification to
  // its handler a microtask late, so one read holding a progress notification and the response
  // drops the progress: what the server sent is read here, on the wire.
  const wire: JSONRPCMessage[] = []
  beforeAll(async () => {
    const script = fileURLToPath(new URL('./fixtures/serve-stdio.mjs', import.meta.url))
    const transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'inherit' })
    transport.onmessage = (message) => {
      wire.push(message)
    }
    await client.connect(transport)
  })
  afterAll(() => client.close())

  it('lists the tool and the agent with JSON Schema inputs', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['shout', 'greeter'])
    expect(tools[1]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { input: { type: 'string' } },
      required: ['input'],
    })
  })

  it('runs the tool, reporting ctx.update() as progress before the result', async () => {
    const seen = wire.length
    const result = await client.callTool({ name: 'shout', arguments: { text: 'hi' } }, undefined, {
      onprogress: () => {},
    })
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'HI' }] })
    const sent = wire
      .slice(seen)
      .map((message) => ('method' in message ? { method: message.method, params: message.params } : { response: true }))
    expect(sent).toMatchObject([
      { method: 'notifications/progress', params: { progress: 1, message: 'shouting' } },
      { response: true },
    ])
  })

  it('runs the agent as a nested exec and returns its text', async () => {
    const result = await client.callTool({ name: 'greeter', arguments: { input: 'greet Ada' } })
    expect(result).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'hello from a nested exec (You greet people.)' }],
    })
  })

  it('invalid arguments come back as an error result naming the issue', async () => {
    const result = await client.callTool({ name: 'shout', arguments: { text: 3 } })
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toMatch(/invalid arguments for shout: \/text/)
  })
})
