import type { IncomingMessage } from 'node:http'
import { Runtime, defineTool } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { connectClient, initialize, post } from './http-probe.js'

const TOKEN = 'tok-3f9a2c-bearer'
const seen: IncomingMessage[] = []
const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
})

describe('serveMcp over HTTP: authorize', () => {
  let serving: McpServing
  beforeAll(async () => {
    serving = await serveMcp(
      { runtime: new Runtime({ provider: scripted([]), model: 'm' }), tools: [echo] },
      {
        http: true,
        port: 0,
        authorize: (request) => {
          seen.push(request)
          return request.headers.authorization === `Bearer ${TOKEN}`
        },
        wwwAuthenticate:
          'Bearer realm="nestor", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
      },
    )
  })
  afterAll(() => serving.close())

  it('a request without the token gets a JSON 401 with WWW-Authenticate, and no session', async () => {
    const raw = await post(serving.url!, initialize())
    expect(raw.status).toBe(401)
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer realm="nestor", resource_metadata=/)
    expect(raw.headers.get('mcp-session-id')).toBeNull()
    expect(raw.json).toMatchObject({ jsonrpc: '2.0', error: { message: 'unauthorized' } })
  })

  it('a wrong token is refused by the SDK client too', async () => {
    await expect(connectClient(serving.url!, { headers: { authorization: 'Bearer nope' } })).rejects.toThrow(
      /unauthorized/,
    )
  })

  it('with the token every request of the session is asked about and passes', async () => {
    const before = seen.length
    const client = await connectClient(serving.url!, { headers: { authorization: `Bearer ${TOKEN}` } })
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } })
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }])
    await client.close()
    // initialize, notifications/initialized, tools/call at least: each one was decided.
    expect(seen.length - before).toBeGreaterThanOrEqual(3)
  })

  it('binding beyond loopback without authorize is refused with invalid_options before listening', async () => {
    const runtime = new Runtime({ provider: scripted([]), model: 'm' })
    await expect(serveMcp({ runtime, tools: [echo] }, { http: true, port: 0, host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(/needs authorize/),
    })
  })
})
