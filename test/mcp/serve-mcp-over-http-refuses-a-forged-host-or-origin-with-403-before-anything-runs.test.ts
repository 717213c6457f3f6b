import { Runtime, defineTool } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { connectClient, initialize, post, rebindingFetch, renamed } from './http-probe.js'

const runtime = new Runtime({ provider: scripted([]), model: 'm' })
let ran = 0
const touch = defineTool({
  name: 'touch',
  description: 'Counts its calls',
  parameters: z.object({}),
  execute: () => String(++ran),
})

describe('serveMcp over HTTP: DNS-rebinding protection', () => {
  let serving: McpServing | undefined
  afterEach(async () => {
    await serving?.close()
    serving = undefined
  })

  it('a rebound name (Host: evil.example) gets 403 and no session or call', async () => {
    serving = await serveMcp({ runtime, tools: [touch] }, { http: true, port: 0 })
    const before = ran
    const evil = renamed(serving.url!, 'evil.example')
    await expect(connectClient(evil, { fetch: rebindingFetch() })).rejects.toThrow(
      /forbidden: this (Host|Origin) is not allowed/,
    )
    expect(ran).toBe(before)
  })

  it('a page of another origin (Origin: http://evil.example) gets a JSON 403', async () => {
    serving = await serveMcp({ runtime, tools: [touch] }, { http: true, port: 0 })
    await expect(connectClient(serving.url!, { headers: { origin: 'http://evil.example' } })).rejects.toThrow(
      /forbidden: this (Host|Origin) is not allowed/,
    )
    const raw = await post(serving.url!, initialize(), { origin: 'http://evil.example' })
    expect(raw.status).toBe(403)
    expect(raw.json).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/Origin/) },
    })
  })

  it('the Host check comes before the path: an unknown path under a forged Host is 403, not 404', async () => {
    serving = await serveMcp({ runtime, tools: [touch] }, { http: true, port: 0 })
    const evil = renamed(serving.url!, 'evil.example')
    evil.pathname = '/elsewhere'
    const res = await rebindingFetch()(evil, { method: 'POST', body: '{}' })
    expect(res.status).toBe(403)
  })

  it('localhost, 127.0.0.1 and the page of the served origin pass, and the tool runs', async () => {
    serving = await serveMcp({ runtime, tools: [touch] }, { http: true, port: 0 })
    const port = serving.url!.port
    for (const [url, headers] of [
      [renamed(serving.url!, 'localhost'), { origin: `http://localhost:${port}` }],
      [serving.url!, { origin: `http://127.0.0.1:${port}` }],
    ] as const) {
      const client = await connectClient(url, { headers, fetch: rebindingFetch() })
      const result = await client.callTool({ name: 'touch', arguments: {} })
      expect(result.isError).toBe(false)
      await client.close()
    }
  })

  it('the same name on another port is refused: only the served port is the default', async () => {
    serving = await serveMcp({ runtime, tools: [touch] }, { http: true, port: 0 })
    const raw = await post(serving.url!, initialize(), { origin: `http://127.0.0.1:${Number(serving.url!.port) + 1}` })
    expect(raw.status).toBe(403)
  })

  it('allowedHosts and allowedOrigins widen the defaults', async () => {
    serving = await serveMcp(
      { runtime, tools: [touch] },
      { http: true, port: 0, allowedHosts: ['mcp.example.test'], allowedOrigins: ['https://app.example.test'] },
    )
    const client = await connectClient(renamed(serving.url!, 'mcp.example.test'), {
      headers: { origin: 'https://app.example.test' },
      fetch: rebindingFetch(),
    })
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['touch'])
    await client.close()
    await expect(
      connectClient(renamed(serving.url!, 'other.example.test'), { fetch: rebindingFetch() }),
    ).rejects.toThrow(/forbidden: this (Host|Origin) is not allowed/)
  })
})
