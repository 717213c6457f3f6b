import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { mcpTools, serveMcp } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { textOfResult, toolResults } from '../support/mcp-servers.js'

const SECRET = 'sk-live-SECRET123'
const ping = defineTool({ name: 'ping', description: 'Pings', parameters: z.object({}), execute: () => 'pong' })
const backend = new Runtime({ provider: scripted([]), model: 'm' })

describe('mcpTools: a token in the server URL path', () => {
  it('an unreachable path fails with invalid_options naming only scheme, host and port', async () => {
    const serving = await serveMcp({ runtime: backend, tools: [ping] }, { http: true, port: 0, path: '/mcp' })
    try {
      const url = new URL(`/mcp/${SECRET}/sse?key=${SECRET}`, serving.url!)
      const error = await mcpTools({ url }).then(
        () => undefined,
        (e: unknown) => e as Error & { code: string },
      )
      expect(error?.code).toBe('invalid_options')
      expect(error!.message).toContain(`MCP server http://127.0.0.1:${serving.url!.port}:`)
      expect(error!.message).not.toContain(SECRET)
      expect(error!.message).not.toContain('/mcp')
      expect(String(error!.cause ?? '')).not.toContain(SECRET)
    } finally {
      await serving.close()
    }
  })

  it('a server that goes away gives an error result, events and receipts without the token', async () => {
    const serving = await serveMcp(
      { runtime: backend, tools: [ping] },
      { http: true, port: 0, path: `/mcp/${SECRET}/sse` },
    )
    const mcp = await mcpTools({ url: serving.url! })
    await serving.close()
    const events: AgentEvent[] = []
    const runtime = new Runtime({ provider: scripted([calls({ name: 'ping' }), 'done']), model: 'm' })
    runtime.on('*', (e) => void events.push(e))
    try {
      const result = await runtime.exec('go', { tools: mcp.tools })
      const [answer] = toolResults(result.history)
      expect(answer!.isError).toBe(true)
      expect(textOfResult(answer!)).toMatch(/MCP server http:\/\/127\.0\.0\.1:\d+ could not be reached during ping/)
      expect(JSON.stringify([result, events])).not.toContain(SECRET)
    } finally {
      await mcp.close()
    }
  })
})
