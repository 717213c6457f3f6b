import { mcpTools } from '@nestor/mcp'
import { describe, expect, it } from 'vitest'

describe('mcpTools() input checks', () => {
  it.each([
    [{ command: '' }, {}, /server\.command/],
    [{ nothing: true }, {}, /invalid option server/],
    [{ url: 'not a url' }, {}, /server\.url/],
    [{ command: 'x' }, { include: 'echo' }, /include/],
    [{ command: 'x' }, { timeoutMs: -1 }, /timeoutMs/],
  ])('%j with %j is refused before any process starts', async (server, options, message) => {
    await expect(mcpTools(server as never, options as never)).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(message),
    })
  })

  it('a command that is not an MCP server fails with invalid_options naming it, without its env or headers', async () => {
    const failing = mcpTools({
      command: process.execPath,
      args: ['-e', 'process.exit(2)'],
      env: { API_TOKEN: 'sk-very-secret-1234' },
      stderr: 'ignore',
    })
    await expect(failing).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(/could not list the tools of MCP server node -e/),
    })
    await expect(failing).rejects.not.toMatchObject({ message: expect.stringContaining('sk-very-secret') })

    const http = mcpTools({
      url: 'http://127.0.0.1:9/mcp?key=sk-url-secret',
      headers: { authorization: 'Bearer sk-header-secret' },
    })
    const error = await http.catch((e: Error) => e)
    // Scheme, host and port only: a path may hold a token as well as a query.
    expect(error).toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('MCP server http://127.0.0.1:9:'),
    })
    expect((error as Error).message).not.toMatch(/sk-url-secret|sk-header-secret|\/mcp/)
  })
})
