import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { Runtime } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformancePrompts, conformanceResources } from '../../examples/mcp/conformance-server.js'

/** The MCP error an SDK client call rejected with. */
async function mcpErrorOf(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(McpError)
  return error as McpError
}

describe('serveMcp resources and prompts over stdio', () => {
  const client = new Client({ name: 'test', version: '1' })
  const wire: JSONRPCMessage[] = []
  beforeAll(async () => {
    const script = fileURLToPath(new URL('./fixtures/serve-catalog-stdio.mjs', import.meta.url))
    const transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'inherit' })
    transport.onmessage = (message) => {
      wire.push(message)
    }
    await client.connect(transport)
  })
  afterAll(() => client.close())

  it('declares resources with subscribe, prompts and completions', () => {
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true },
      prompts: {},
      completions: {},
    })
  })

  it('tells a subscriber when its resource changes, and stops after unsubscribe', async () => {
    const updates = () =>
      wire.flatMap((m) => ('method' in m && m.method === 'notifications/resources/updated' ? [m.params!['uri']] : []))
    await client.subscribeResource({ uri: 'notes://garden' })
    await client.callTool({ name: 'touch', arguments: { id: 'garden' } })
    await client.callTool({ name: 'touch', arguments: { id: 'groceries' } })
    await client.unsubscribeResource({ uri: 'notes://garden' })
    await client.callTool({ name: 'touch', arguments: { id: 'garden' } })
    // Stdio keeps order: each notification is on the wire before the response of the call that sent it.
    expect(updates()).toEqual(['notes://garden'])
    const read = await client.readResource({ uri: 'notes://garden' })
    expect(read.contents).toEqual([
      { uri: 'notes://garden', mimeType: 'text/plain', text: 'water the roses (edited) (edited)' },
    ])
  })

  it('completes a template variable and a prompt argument from what was typed', async () => {
    const variable = await client.complete({
      ref: { type: 'ref/resource', uri: 'notes://{id}' },
      argument: { name: 'id', value: 'gr' },
    })
    expect(variable.completion).toEqual({ values: ['groceries'], total: 1, hasMore: false })
    const argument = await client.complete({
      ref: { type: 'ref/prompt', name: 'summarize' },
      argument: { name: 'id', value: 'ga' },
    })
    expect(argument.completion.values).toEqual(['garden'])
  })

  it('refuses a subscription to a URI no resource answers', async () => {
    const error = await mcpErrorOf(client.subscribeResource({ uri: 'other://thing' }))
    expect(error.code).toBe(-32002)
  })
})

describe('serveMcp resources and prompts over Streamable HTTP', () => {
  let serving: McpServing
  const client = new Client({ name: 'test', version: '1' })
  beforeAll(async () => {
    const runtime = new Runtime({ provider: scripted([]), model: 'none' })
    serving = await serveMcp(
      { runtime, resources: conformanceResources, prompts: conformancePrompts },
      { http: true, port: 0 },
    )
    await client.connect(new StreamableHTTPClientTransport(serving.url!))
  })
  afterAll(async () => {
    await client.close()
    await serving.close()
  })

  it('lists fixed resources and templates apart, and reads text, binary and templated ones', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
    ])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data for one id',
        mimeType: 'application/json',
      },
    ])
    const binary = await client.readResource({ uri: 'test://static-binary' })
    const blob = (binary.contents[0] as { blob: string }).blob
    expect(Buffer.from(blob, 'base64').subarray(1, 4).toString()).toBe('PNG')
    const templated = await client.readResource({ uri: 'test://template/42/data' })
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).toMatchObject({ id: '42' })
  })

  it('answers an unknown resource URI with resource-not-found, naming it', async () => {
    const error = await mcpErrorOf(client.readResource({ uri: 'test://nowhere' }))
    expect(error.code).toBe(-32002)
    expect(error.message).toContain('test://nowhere')
  })

  it('gets prompts with arguments, embedded resources and images', async () => {
    const withArgs = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })
    expect(withArgs.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } },
    ])
    const embedded = await client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://x' },
    })
    expect(embedded.messages[0]!.content).toMatchObject({ type: 'resource', resource: { uri: 'test://x' } })
    const image = await client.getPrompt({ name: 'test_prompt_with_image' })
    expect(image.messages[0]!.content).toMatchObject({ type: 'image', mimeType: 'image/png' })
  })

  it('refuses missing, unknown and misspelled prompt arguments with invalid params', async () => {
    const missing = await mcpErrorOf(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } }))
    expect(missing).toMatchObject({ code: -32602 })
    expect(missing.message).toContain('needs argument arg2')
    const extra = await mcpErrorOf(client.getPrompt({ name: 'test_simple_prompt', arguments: { tone: 'dry' } }))
    expect(extra.message).toContain('has no argument tone')
    const unknown = await mcpErrorOf(client.getPrompt({ name: 'no_such_prompt' }))
    expect(unknown).toMatchObject({ code: -32602 })
    const completion = await mcpErrorOf(
      client.complete({ ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'a', value: '' } }),
    )
    expect(completion).toMatchObject({ code: -32602 })
  })
})
