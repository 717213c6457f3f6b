import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { Runtime } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { calls, historyProblems } from '../support/run.js'
import { alive, edgeServer, textOfResult, toolResults } from '../support/mcp-servers.js'

describe('a server process that dies', () => {
  it('the call in flight gets an error result and the next call starts a new process', async () => {
    const mcp = await mcpTools(edgeServer())
    try {
      const provider = scripted([calls({ name: 'pid' }), calls({ name: 'die' }), calls({ name: 'pid' }), 'done'])
      // pid is asked twice with the same (empty) arguments: allow the repeat.
      const result = await new Runtime({ provider, model: 'm', duplicateCalls: 'allow' }).exec('go', {
        tools: mcp.tools,
      })

      expect(result.status).toBe('completed')
      expect(historyProblems(result.history)).toEqual([])
      const [first, died, second] = toolResults(result.history)
      expect(died).toMatchObject({ isError: true })
      expect(textOfResult(died!)).toMatch(/closed the connection during die; the next call connects again/)
      expect(second).toMatchObject({ isError: false })
      const [pid1, pid2] = [Number(textOfResult(first!)), Number(textOfResult(second!))]
      expect(pid2).not.toBe(pid1)
      expect(alive(pid1)).toBe(false)
    } finally {
      await mcp.close()
    }
  })

  it('a Client passed in is not reopened: the next call fails with a clear message', async () => {
    const client = new Client({ name: 'test', version: '1' })
    const { command, args } = edgeServer()
    await client.connect(new StdioClientTransport({ command, args: args!, stderr: 'ignore' }))
    const mcp = await mcpTools(client)
    try {
      const provider = scripted([calls({ name: 'die' }), calls({ name: 'pid' }), 'done'])
      const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools })
      const [, next] = toolResults(result.history)
      expect(next).toMatchObject({ isError: true })
      expect(textOfResult(next!)).toMatch(/is not connected: connect it again/)
    } finally {
      await mcp.close()
      await client.close()
    }
  })
})
