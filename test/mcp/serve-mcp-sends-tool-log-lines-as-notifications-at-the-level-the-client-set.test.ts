import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js'
import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'

const SECRET = 'sk-log-7f3a9c2e'
const chatty = defineTool({
  name: 'chatty',
  description: 'Logs at four levels',
  parameters: z.object({}),
  execute: (_args, ctx) => {
    ctx.log('debug', 'looking around')
    ctx.log('info', 'found 3 files')
    ctx.log('warning', 'one file is large', { bytes: 9_000_000 })
    ctx.log('error', `could not open it with ${SECRET}`)
    return 'done'
  },
})

describe('ctx.log of a served tool', () => {
  let serving: McpServing
  const events: AgentEvent[] = []
  const runtime = new Runtime({ provider: scripted([]), model: 'm', secrets: [SECRET] })
  runtime.on('tool_log', (e) => void events.push(e))
  beforeAll(async () => {
    serving = await serveMcp({ runtime, tools: [chatty] }, { http: true, port: 0 })
  })
  afterAll(() => serving.close())

  async function callLogging(level?: 'warning'): Promise<LoggingMessageNotification['params'][]> {
    const client = new Client({ name: 'probe', version: '1.0.0' })
    const lines: LoggingMessageNotification['params'][] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void lines.push(n.params))
    await client.connect(new StreamableHTTPClientTransport(serving.url!))
    try {
      if (level) await client.setLoggingLevel(level)
      await client.callTool({ name: 'chatty', arguments: {} })
      return lines
    } finally {
      await client.close()
    }
  }

  it('reaches the client as notifications/message, every level until the client sets one, secrets redacted', async () => {
    events.length = 0
    const lines = await callLogging()
    expect(lines).toEqual([
      { level: 'debug', logger: 'chatty', data: 'looking around' },
      { level: 'info', logger: 'chatty', data: 'found 3 files' },
      { level: 'warning', logger: 'chatty', data: { message: 'one file is large', data: { bytes: 9_000_000 } } },
      { level: 'error', logger: 'chatty', data: expect.not.stringContaining(SECRET) },
    ])
    // The runtime's own listeners get the same lines as tool_log events.
    expect(events.map((e) => e.type === 'tool_log' && [e.level, e.message])).toEqual([
      ['debug', 'looking around'],
      ['info', 'found 3 files'],
      ['warning', 'one file is large'],
      ['error', expect.not.stringContaining(SECRET)],
    ])
  })

  it('after logging/setLevel warning, only warning and above are sent; events still see every line', async () => {
    events.length = 0
    const lines = await callLogging('warning')
    expect(lines.map((l) => l.level)).toEqual(['warning', 'error'])
    expect(events).toHaveLength(4)
  })
})
