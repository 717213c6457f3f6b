import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Runtime, defineTool, type ToolResultContent } from '@nestor/core'
import { mcpTools, serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'

// A Nestor tool returns every kind of content; over real HTTP the SDK's own client reads it as
// MCP content, and mcpTools on the same server gives it back to Nestor unchanged.
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA='
const PNG = 'iVBORw0KGgoAAAANSUhEUg=='
const content: ToolResultContent[] = [
  { type: 'text', text: 'here' },
  { type: 'image', data: PNG, mimeType: 'image/png' },
  { type: 'audio', data: WAV, mimeType: 'audio/wav' },
  { type: 'resource', resource: { uri: 'test://notes.txt', mimeType: 'text/plain', text: 'buy milk' } },
  { type: 'resource', resource: { uri: 'test://report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0xLjQK' } },
  { type: 'resource_link', uri: 'test://big.csv', name: 'big', mimeType: 'text/csv', description: 'all rows' },
]
const everything = defineTool({
  name: 'everything',
  description: 'Returns one part of each kind',
  parameters: z.object({}),
  execute: () => ({ content }),
})

describe('audio and resources between serveMcp and mcpTools', () => {
  let serving: McpServing
  const runtime = new Runtime({ provider: scripted([]), model: 'm' })
  beforeAll(async () => {
    serving = await serveMcp({ runtime, tools: [everything] }, { http: true, port: 0 })
  })
  afterAll(() => serving.close())

  it('the SDK client reads each part as its MCP content type', async () => {
    const client = new Client({ name: 'probe', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(serving.url!))
    try {
      const result = await client.callTool({ name: 'everything', arguments: {} })
      expect(result.isError).toBe(false)
      expect(result.content).toEqual(content)
    } finally {
      await client.close()
    }
  })

  it('mcpTools gives the same parts back as the tool result, and its receipt is ok', async () => {
    const remote = await mcpTools({ url: serving.url! })
    try {
      const batch = await runtime.runBatch([{ tool: 'everything', args: {} }], { tools: remote.tools })
      const { result, receipt } = batch.results[0]!
      expect(receipt.status).toBe('ok')
      expect(result.content).toEqual(content)
    } finally {
      await remote.close()
    }
  })
})
