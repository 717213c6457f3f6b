import { Runtime, defineTool } from '@nestor/core'
import { mcpTools, serveMcp } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls, historyProblems } from '../support/run.js'
import { textOfResult, toolResults } from '../support/mcp-servers.js'

const serve = (port: number, answer: string) => {
  const hello = defineTool({
    name: 'hello',
    description: 'Says hello',
    parameters: z.object({ n: z.number() }),
    execute: () => answer,
  })
  return serveMcp(
    { runtime: new Runtime({ provider: scripted([]), model: 'm' }), tools: [hello] },
    { http: true, port },
  )
}

describe('a Streamable HTTP server that restarts', () => {
  it('the call that hits the lost session gets an error result and the next call opens a new session', async () => {
    let serving = await serve(0, 'first server')
    const port = Number(serving.url!.port)
    const mcp = await mcpTools({ url: serving.url! })
    try {
      const provider = scripted(async (_request, index) => {
        if (index === 1) {
          // The server restarts between the model's first and second call: its sessions are gone.
          await serving.close()
          // A restart takes a moment: the client sees its old sockets close before the next request.
          // (the setImmediate lets one I/O poll phase run after the timer, even on a busy machine)
          await new Promise((resolve) => setTimeout(resolve, 100))
          await new Promise((resolve) => setImmediate(resolve))
          serving = await serve(port, 'second server')
        }
        return index < 3 ? calls({ name: 'hello', args: { n: index } }) : 'done'
      })
      const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools })

      expect(historyProblems(result.history)).toEqual([])
      const [first, lost, renewed] = toolResults(result.history)
      expect(textOfResult(first!)).toBe('first server')
      expect(lost).toMatchObject({ isError: true })
      expect(textOfResult(lost!)).toMatch(/could not be reached during hello .*the next call connects again/)
      expect(textOfResult(renewed!)).toBe('second server')
    } finally {
      await mcp.close()
      await serving.close()
    }
  })
})
