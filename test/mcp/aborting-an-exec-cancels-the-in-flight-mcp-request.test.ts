import { Runtime, type EventOf } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { calls, historyProblems } from '../support/run.js'
import { drain, edgeServer, everythingServer } from '../support/mcp-servers.js'

const cancellations = async (mcp: Awaited<ReturnType<typeof mcpTools>>) => {
  const r = await mcp.client!.callTool({ name: 'cancellations', arguments: {} })
  return Number((r.content as { text: string }[])[0]!.text)
}

describe('cancellation', () => {
  it('aborting the exec sends notifications/cancelled to the server for the running call', async () => {
    const mcp = await mcpTools(edgeServer())
    try {
      const controller = new AbortController()
      const runtime = new Runtime({ provider: scripted([calls({ name: 'hang' }), 'unreached']), model: 'm' })
      runtime.on('tool_start', () => setTimeout(() => controller.abort(), 50))
      const result = await runtime.exec('go', { tools: mcp.tools, signal: controller.signal })

      expect(result.status).toBe('aborted')
      expect(result.receipts[0]).toMatchObject({ toolName: 'hang', status: 'aborted' })
      expect(historyProblems(result.history)).toEqual([])
      // The server saw the cancellation (its handler's signal aborted), and the session goes on.
      await expect.poll(() => cancellations(mcp)).toBe(1)
    } finally {
      await mcp.close()
    }
  })

  it('a timeout cancels the call the same way and gives a timeout result', async () => {
    const mcp = await mcpTools(edgeServer(), { timeoutMs: 200 })
    try {
      const result = await new Runtime({ provider: scripted([calls({ name: 'hang' }), 'gave up']), model: 'm' }).exec(
        'go',
        { tools: mcp.tools },
      )
      expect(result.status).toBe('completed')
      expect(result.receipts[0]).toMatchObject({ toolName: 'hang', status: 'timeout' })
      await expect.poll(() => cancellations(mcp)).toBe(1)
    } finally {
      await mcp.close()
    }
  })

  it('a long-running everything-server operation streams progress as tool updates and stops on abort', async () => {
    const mcp = await mcpTools(everythingServer())
    try {
      const controller = new AbortController()
      const runtime = new Runtime({
        provider: scripted([calls({ name: 'trigger-long-running-operation', args: { duration: 30, steps: 60 } }), 'x']),
        model: 'm',
      })
      runtime.on('tool_update', () => controller.abort())
      const started = Date.now()
      const { events, result } = await drain(runtime.exec('go', { tools: mcp.tools, signal: controller.signal }))

      expect(result.status).toBe('aborted')
      expect(Date.now() - started).toBeLessThan(10_000)
      const update = events.find((e): e is EventOf<'tool_update'> => e.type === 'tool_update')
      expect(update?.update).toEqual({ progress: 1, total: 60 })
      // The session is still usable after the cancellation.
      const echo = await mcp.client!.callTool({ name: 'echo', arguments: { message: 'still here' } })
      expect(JSON.stringify(echo.content)).toContain('still here')
    } finally {
      await mcp.close()
    }
  })
})
