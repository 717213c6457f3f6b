import { request } from 'node:http'
import { Runtime, defineTool } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { connectClient, initialize } from './http-probe.js'

const LIMIT = 64 * 1024
const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `${text.length} chars`,
})

/** An initialize whose client name is `size` characters long. */
const padded = (message: ReturnType<typeof initialize>, size: number) => ({
  ...message,
  params: { ...message.params, clientInfo: { name: 'p'.repeat(size), version: '1' } },
})

type Sent = { status: number; json: unknown; bytesSent: number }

/**
 * Streams a body of up to `total` bytes in 16 KiB chunks, stopping as soon as the response
 * arrives: a server that read the whole body could only answer after the last chunk.
 */
function stream(url: URL, total: number, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let bytesSent = 0
    let answered = false
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        answered = true
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text), bytesSent })
          req.destroy()
        })
      },
    )
    req.on('error', (error) => (answered ? undefined : reject(error)))
    const chunk = Buffer.alloc(16 * 1024, 'a')
    const pump = () => {
      while (!answered && bytesSent < total) {
        bytesSent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered) req.end()
    }
    req.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"')
    pump()
  })
}

describe('serveMcp over HTTP: maxBodyBytes', () => {
  let serving: McpServing
  beforeAll(async () => {
    serving = await serveMcp(
      { runtime: new Runtime({ provider: scripted([]), model: 'm' }), tools: [echo] },
      { http: true, port: 0, maxBodyBytes: LIMIT },
    )
  })
  afterAll(() => serving.close())

  it('a declared Content-Length over the bound gets a JSON 413 before any of the body is sent', async () => {
    const sent = await new Promise<{ status: number; json: unknown }>((resolve, reject) => {
      const req = request(serving.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(60 * 1024 * 1024) },
      })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => (resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }), req.destroy()))
      })
      req.on('error', reject)
      req.flushHeaders()
    })
    expect(sent.status).toBe(413)
    expect(sent.json).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/too large/) } })
  })

  it('a chunked body that grows past the bound is refused while it is still being sent', async () => {
    const sent = await stream(serving.url!, 8 * 1024 * 1024)
    expect(sent.status).toBe(413)
    expect(sent.bytesSent).toBeLessThan(8 * 1024 * 1024)
  })

  it('inside a session the same bound applies, and the session still works after', async () => {
    const client = await connectClient(serving.url!)
    const sessionId = (client.transport as { sessionId?: string }).sessionId!
    const sent = await stream(serving.url!, 8 * 1024 * 1024, {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    })
    expect(sent.status).toBe(413)
    expect(sent.bytesSent).toBeLessThan(8 * 1024 * 1024)
    const result = await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(1000) } })
    expect(result.content).toEqual([{ type: 'text', text: '1000 chars' }])
    await client.close()
  })

  it('a body under the bound is read whole', async () => {
    const res = await fetch(serving.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(padded(initialize(), LIMIT / 2)),
    })
    expect(res.status).toBe(200)
    await res.body?.cancel()
  })
})
