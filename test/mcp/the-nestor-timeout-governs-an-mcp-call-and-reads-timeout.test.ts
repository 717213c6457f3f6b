import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js'
import { Runtime } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { calls } from '../support/run.js'
import { edgeServer } from '../support/mcp-servers.js'
import { hostileServer, def } from './hostile-server.js'

const cancellations = async (mcp: Awaited<ReturnType<typeof mcpTools>>) => {
  const r = await mcp.client!.callTool({ name: 'cancellations', arguments: {} })
  return Number((r.content as { text: string }[])[0]!.text)
}

/** The SDK's real Client, noting the request options each tools/call was sent with. */
class NotingClient extends Client {
  readonly sent: (RequestOptions | undefined)[] = []
  override callTool(...args: Parameters<Client['callTool']>) {
    this.sent.push(args[2])
    return super.callTool(...args)
  }
}

describe('mcpTools: timeouts', () => {
  it('with only the runtime toolTimeoutMs, a hanging call reads timeout and the server is cancelled', async () => {
    const mcp = await mcpTools(edgeServer())
    try {
      const runtime = new Runtime({
        provider: scripted([calls({ name: 'hang' }), 'gave up']),
        model: 'm',
        toolTimeoutMs: 300,
      })
      const result = await runtime.exec('go', { tools: mcp.tools })
      expect(result.receipts[0]).toMatchObject({ toolName: 'hang', status: 'timeout' })
      await expect.poll(() => cancellations(mcp)).toBe(1)
    } finally {
      await mcp.close()
    }
  })

  it.each([undefined, Infinity, 90_000])(
    'timeoutMs %s: the SDK gets no 60 s request timer of its own',
    async (timeoutMs) => {
      const client = new NotingClient({ name: 'noting', version: '1' })
      const hostile = await hostileServer(() => ({ tools: [def('slow')] }), client)
      try {
        const mcp = await mcpTools(client, timeoutMs === undefined ? {} : { timeoutMs })
        const result = await new Runtime({ provider: scripted([calls({ name: 'slow' }), 'ok']), model: 'm' }).exec(
          'go',
          {
            tools: mcp.tools,
          },
        )
        expect(result.receipts[0]).toMatchObject({ status: 'ok' })
        // A Node timer's longest delay: the SDK's timer never fires before Nestor's timeout.
        expect(client.sent[0]?.timeout).toBe(2 ** 31 - 1)
      } finally {
        await hostile.close()
      }
    },
  )
})
