// docs/mcp.md § Serving Nestor tools and agents: serveMcp over Streamable HTTP, called by the
// MCP SDK's own client. Run: npx tsc -b && node examples/dist/mcp/serve-http.js
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Agent } from '@nestor/agents'
import { Runtime, defineTool } from '@nestor/core'
import { serveMcp } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

class Poet extends Agent {
  instructions = 'You write one-line poems.'
}

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words of a text',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }, ctx) => {
    ctx.update('counting') // reaches the client as a progress notification
    return String(text.split(/\s+/).filter(Boolean).length)
  },
})

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const runtime = new Runtime({ provider: scripted(() => 'Tools at rest, the loop sleeps.'), model: 'demo' })
  const serving = await serveMcp(
    {
      runtime,
      tools: [wordCount],
      agents: [{ name: 'poet', description: 'Writes a one-line poem', agent: new Poet() }],
    },
    { http: true, port: 0 }, // 127.0.0.1 on a free port
  )
  const client = new Client({ name: 'example-client', version: '1.0.0' })
  try {
    await client.connect(new StreamableHTTPClientTransport(serving.url!))
    log(`tools: ${(await client.listTools()).tools.map((t) => t.name).join(', ')}`)
    const count = await client.callTool({ name: 'word_count', arguments: { text: 'one two three' } }, undefined, {
      onprogress: (p) => log(`progress: ${p.message}`),
    })
    log(`word_count: ${JSON.stringify(count.content)}`)
    const poem = await client.callTool({ name: 'poet', arguments: { input: 'a poem about agent loops' } })
    log(`poet: ${JSON.stringify(poem.content)}`)
  } finally {
    await client.close()
    await serving.close()
  }
}

// Run as a script (node dist/…/this.js), not when a test imports main().
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
