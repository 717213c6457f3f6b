import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import { NestorError, Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { mcpTools, serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MemoryOAuthProvider } from '../../examples/mcp/memory-oauth-provider.js'
import { startAuthServer, type RunningAuthServer } from '../support/oauth-server.js'

// A Nestor MCP server that accepts only access tokens of a local authorization server (the MCP
// SDK's server-side auth helpers over real HTTP), and mcpTools as the OAuth client.
const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
})

describe('mcpTools with an authProvider', () => {
  let as: RunningAuthServer
  let serving: McpServing
  const runtime = new Runtime({ provider: scripted([]), model: 'm' })
  const events: AgentEvent[] = []
  runtime.on('*', (e) => void events.push(e))

  beforeAll(async () => {
    as = await startAuthServer()
    serving = await serveMcp(
      { runtime: new Runtime({ provider: scripted([]), model: 'm' }), tools: [add] },
      {
        http: true,
        port: 0,
        wwwAuthenticate: as.wwwAuthenticate('/mcp'),
        authorize: async (request) => {
          const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
          return (
            token !== undefined &&
            (await as.provider.verifyAccessToken(token).then(
              () => true,
              () => false,
            ))
          )
        },
      },
    )
    as.protect(serving.url!)
  })
  afterAll(async () => {
    await serving.close()
    await as.close()
  })

  const call = async (tools: Awaited<ReturnType<typeof mcpTools>>['tools']) =>
    (await runtime.runBatch([{ tool: 'add', args: { a: 2, b: 3 } }], { tools })).results[0]!.result

  it('without one, a server that answers 401 is refused as needing OAuth', async () => {
    const error = await mcpTools({ url: serving.url! }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NestorError)
    expect((error as NestorError).code).toBe('invalid_options')
    expect((error as Error).message).toMatch(/requires OAuth: pass options\.authProvider/)
  })

  it('discovers the metadata, registers, sends the user to authorize, then gets, uses and refreshes tokens', async () => {
    const provider = new MemoryOAuthProvider('http://127.0.0.1:1/callback')
    // 401 → protected-resource metadata → authorization-server metadata → registration → authorize URL.
    const first = await mcpTools({ url: serving.url! }, { authProvider: provider }).catch((e: unknown) => e)
    expect((first as NestorError).code).toBe('invalid_options')
    expect((first as Error).message).toMatch(/needs an authorization: authProvider\.redirectToAuthorization/)
    expect(as.provider.clients.size).toBe(1)
    const url = provider.authorizationUrl!
    expect(url.origin).toBe(as.issuer.origin)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('resource')).toBe(serving.url!.href)

    // The user signs in; the app gets the code at its redirect URL and finishes with the SDK's auth().
    const back = await fetch(url, { redirect: 'manual' })
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!
    expect(await auth(provider, { serverUrl: serving.url!, authorizationCode: code })).toBe('AUTHORIZED')

    const fs = await mcpTools({ url: serving.url! }, { authProvider: provider })
    try {
      expect(fs.tools.map((t) => t.spec.name)).toEqual(['add'])
      expect((await call(fs.tools)).content).toEqual([{ type: 'text', text: '5' }])

      // The access token stops working: the next call is answered 401, the SDK refreshes, the call goes through.
      as.provider.expire()
      expect((await call(fs.tools)).content).toEqual([{ type: 'text', text: '5' }])
      expect(as.provider.grants).toEqual(['authorization_code', 'refresh_token'])

      // Nothing is left to refresh with: the call fails, and its error names no token (the
      // authorization server's error echoes the refresh token it was sent).
      as.provider.expire({ refresh: true })
      const failed = await call(fs.tools)
      expect(failed.isError).toBe(true)
      expect(failed.content).toEqual([{ type: 'text', text: expect.stringMatching(/unknown refresh token …/) }])
      const seen = JSON.stringify([failed, events, (first as Error).message])
      for (const token of as.provider.issued) expect(seen).not.toContain(token)
    } finally {
      await fs.close()
    }
  })

  it('client credentials (machine to machine) get a token without a user', async () => {
    as.provider.preRegister('worker-1', 'cs-very-secret-value')
    const provider = new ClientCredentialsProvider({
      clientId: 'worker-1',
      clientSecret: 'cs-very-secret-value',
      expectedIssuer: as.issuer.href,
    })
    const fs = await mcpTools({ url: serving.url! }, { authProvider: provider })
    try {
      expect((await call(fs.tools)).content).toEqual([{ type: 'text', text: '5' }])
      expect(as.provider.grants.at(-1)).toBe('client_credentials')
    } finally {
      await fs.close()
    }
  })

  it('an authProvider for a stdio server is refused at the call', async () => {
    const provider = new MemoryOAuthProvider('http://127.0.0.1:1/callback')
    await expect(mcpTools({ command: 'node' }, { authProvider: provider })).rejects.toThrow(
      /invalid option authProvider: expected a \{ url \} server/,
    )
  })
})
