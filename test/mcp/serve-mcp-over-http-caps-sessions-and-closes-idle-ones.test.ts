import { Runtime, defineTool } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { connectClient, initialize, post } from './http-probe.js'

let release = () => {}
const hold = defineTool({
  name: 'hold',
  description: 'Runs until released',
  parameters: z.object({}),
  execute: () => new Promise<string>((resolve) => (release = () => resolve('released'))),
})
const runtime = new Runtime({ provider: scripted([]), model: 'm' })
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Opens a session the way a client that then vanishes would: initialize, and nothing more. */
async function abandon(url: URL): Promise<string> {
  const raw = await post(url, initialize())
  expect(raw.status).toBe(200)
  return raw.headers.get('mcp-session-id')!
}

const inSession = (id: string) => ({ 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' })

/**
 * Tries to initialize until the server has room, for at most `ms`: a refused initialize (503)
 * touches no session, so it does not keep the idle one alive as a ping would.
 */
async function roomWithin(url: URL, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25))
    if ((await post(url, initialize())).status === 200) return true
  return false
}

describe('serveMcp over HTTP: maxSessions and sessionIdleMs', () => {
  let serving: McpServing | undefined
  afterEach(async () => {
    release()
    await serving?.close()
    serving = undefined
  })

  it('session ids are random UUIDs', async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0 })
    const ids = [await abandon(serving.url!), await abandon(serving.url!)]
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(ids[0]).not.toBe(ids[1])
  })

  it('an initialize past maxSessions, every session in use, gets a JSON 503; live sessions keep working', async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0, maxSessions: 2 })
    const first = await abandon(serving.url!)
    const second = await abandon(serving.url!)
    // A request after the initialize: their clients are there.
    for (const id of [first, second]) expect((await post(serving.url!, ping(1), inSession(id))).status).toBe(200)
    const refused = await post(serving.url!, initialize())
    expect(refused.status).toBe(503)
    expect(refused.json).toMatchObject({ jsonrpc: '2.0', error: { message: 'too many sessions' } })
    expect((await post(serving.url!, ping(2), inSession(first))).status).toBe(200)
  })

  it("initializes whose clients hang up take one another's places, never those of clients in use", async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0, maxSessions: 3 })
    const staying = await connectClient(serving.url!)
    const flood: string[] = []
    for (let i = 0; i < 10; i++) flood.push(await abandon(serving.url!))
    // The SDK's client still gets in at once, and the client that was there keeps working.
    const next = await connectClient(serving.url!)
    expect((await next.listTools()).tools.map((t) => t.name)).toEqual(['hold'])
    expect((await staying.listTools()).tools.map((t) => t.name)).toEqual(['hold'])
    // Only the newest abandoned session is left (the one the client just now did not need to evict).
    const alive = await Promise.all(flood.map(async (id) => (await post(serving!.url!, ping(3), inSession(id))).status))
    expect(alive.filter((status) => status === 200)).toHaveLength(1)
    await Promise.all([next.close(), staying.close()])
  })

  it('a session closed with DELETE frees its place', async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0, maxSessions: 1 })
    const client = await connectClient(serving.url!)
    await (client.transport as unknown as { terminateSession(): Promise<void> }).terminateSession()
    await client.close()
    const next = await connectClient(serving.url!)
    await next.close()
  })

  it('an abandoned session is closed after sessionIdleMs, and its place is free again', async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0, maxSessions: 1, sessionIdleMs: 200 })
    const id = await abandon(serving.url!)
    // Used once, then abandoned: it keeps its place until it has been idle for sessionIdleMs.
    expect((await post(serving.url!, ping(1), inSession(id))).status).toBe(200)
    expect((await post(serving.url!, initialize())).status).toBe(503)
    expect(await roomWithin(serving.url!, 10_000)).toBe(true)
    expect((await post(serving.url!, ping(2), inSession(id))).status).toBe(404)
  })

  it('a session whose call is still running is not idle, whatever the time', async () => {
    serving = await serveMcp({ runtime, tools: [hold] }, { http: true, port: 0, sessionIdleMs: 100 })
    const client = await connectClient(serving.url!)
    const call = client.callTool({ name: 'hold', arguments: {} })
    await sleep(600)
    release()
    expect(await call).toMatchObject({ content: [{ type: 'text', text: 'released' }] })
    await client.close()
  })
})
