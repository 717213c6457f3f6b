import { mcpTools } from '@nestor/mcp'
import { describe, expect, it } from 'vitest'
import { alive, edgeServer, everythingServer } from '../support/mcp-servers.js'
import { directToolContext } from '../support/tool-context.js'

const pidOf = async (mcp: Awaited<ReturnType<typeof mcpTools>>) => {
  const r = await mcp.client!.callTool({ name: 'pid', arguments: {} })
  return Number((r.content as { text: string }[])[0]!.text)
}

describe('close()', () => {
  it('stops the stdio server process', async () => {
    const mcp = await mcpTools(edgeServer())
    const pid = await pidOf(mcp)
    expect(alive(pid)).toBe(true)
    await mcp.close()
    await expect.poll(() => alive(pid)).toBe(false)
  })

  it('leaves no child process or handle of the everything server behind', async () => {
    const handles = () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length
    const before = handles()
    const mcp = await mcpTools(everythingServer())
    expect(handles()).toBeGreaterThan(before)
    await mcp.close()
    await expect.poll(handles).toBe(before)
  })

  it('after close a tool call fails clearly instead of starting the server again', async () => {
    const mcp = await mcpTools(edgeServer())
    const [tool] = mcp.tools
    await mcp.close()
    const ctx = directToolContext('c')
    await expect(Promise.resolve(tool!.execute({}, ctx))).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(/were closed/),
    })
  })
})
