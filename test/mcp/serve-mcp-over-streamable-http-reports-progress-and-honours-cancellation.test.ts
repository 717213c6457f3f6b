import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { mcpTools, serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { textOfResult, toolResults } from '../support/mcp-servers.js'
import { Researcher } from '../support/researcher-agent.js'

let aborted: (reason: unknown) => void
const abortSeen = new Promise<unknown>((resolve) => (aborted = resolve))
const wait = defineTool({
  name: 'wait',
  description: 'Waits until cancelled',
  parameters: z.object({}),
  execute: (_args, ctx) =>
    new Promise((resolve) =>
      ctx.signal.addEventListener('abort', () => (aborted(ctx.signal.reason), resolve('stopped')), { once: true }),
    ),
})
const add = defineTool({
  name: 'add',
  description: 'Adds',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
})

describe('serveMcp over Streamable HTTP on loopback', () => {
  const events: AgentEvent[] = []
  const model = scripted((request) => {
    const last = request.messages.at(-1)
    return last?.role === 'toolResult'
      ? `summary: ${textOfResult(last)}`
      : calls({ name: 'search', args: { q: 'mcp' } })
  })
  const runtime = new Runtime({ provider: model, model: 'm' })
  runtime.on('*', (e) => void events.push(e))
  let serving: McpServing
  const client = new Client({ name: 'test', version: '1' })
  beforeAll(async () => {
    serving = await serveMcp(
      {
        runtime,
        tools: [wait, add],
        agents: [{ name: 'researcher', description: 'Researches', agent: new Researcher() }],
      },
      { http: true, port: 0 },
    )
    await client.connect(new StreamableHTTPClientTransport(serving.url!))
  })
  afterAll(async () => {
    await client.close()
    await serving.close()
  })

  it('listens on 127.0.0.1 only', () => {
    expect(serving.url!.hostname).toBe('127.0.0.1')
  })

  it('an agent runs as a nested exec whose tool calls and updates arrive as progress', async () => {
    const progress: { progress: number; message?: string }[] = []
    const result = await client.callTool({ name: 'researcher', arguments: { input: 'look up mcp' } }, undefined, {
      onprogress: (p) => progress.push(p),
    })

    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'summary: found mcp' }] })
    expect(progress.map((p) => p.message)).toEqual(['calling search', 'searching mcp'])
    expect(progress.map((p) => p.progress)).toEqual([1, 2])
    const nested = events.filter((e) => e.type === 'agent_start' && e.depth === 1)
    expect(nested).toHaveLength(1)
  })

  it('a client cancellation aborts the running call', async () => {
    const controller = new AbortController()
    runtime.on('tool_start', (e) => {
      if (e.toolName === 'wait') controller.abort()
    })
    await expect(
      client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal }),
    ).rejects.toThrow()
    await expect(abortSeen).resolves.toBeDefined()
  })

  it('the served tools come back as Nestor tools through mcpTools({ url })', async () => {
    const remote = await mcpTools({ url: serving.url! }, { prefix: 'remote_', include: ['add'] })
    try {
      expect(remote.tools.map((t) => t.spec.name)).toEqual(['remote_add'])
      const provider = scripted([calls({ name: 'remote_add', args: { a: 2, b: 3 } }), 'done'])
      const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: remote.tools })
      expect(textOfResult(toolResults(result.history)[0]!)).toBe('5')
    } finally {
      await remote.close()
    }
  })
})
