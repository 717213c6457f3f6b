import { connect } from 'node:net'
import { ApprovalGate, runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonPost, serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function server(options: { maxBodyBytes?: number } = {}) {
  const gate = new ApprovalGate()
  const runtime = tripRuntime({ approve: gate.approve })
  let started = 0
  const routes = runRoutes({
    runtime,
    approvals: gate,
    authorize: () => true,
    start: () => (started++, startTrip(runtime)),
  })
  const { url, close } = await serve(toNodeListener(routes, options))
  closers.push(close)
  return { url, runtime, gate, started: () => started }
}

/** Sends raw bytes (what fetch refuses to send: a bad Host) and returns status line and body. */
function raw(url: string, request: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request))
    let text = ''
    socket.on('data', (chunk) => (text += String(chunk)))
    socket.on('end', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n')
      resolve({ status: Number(head.split(' ')[1]), body: rest.join('\r\n\r\n') })
    })
    socket.on('error', reject)
  })
}

const errorOf = async (response: Response) => ({
  status: response.status,
  type: response.headers.get('content-type'),
  code: ((await response.json()) as { error: { code: string } }).error.code,
})

describe('what a page on another origin can send without a preflight', () => {
  it('a text/plain or form POST starts no run and aborts nothing: 415', async () => {
    const { url, gate, started } = await server()
    const form = await fetch(`${url}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"input":"go"}',
    })
    expect(await errorOf(form)).toEqual({ status: 415, type: 'application/json', code: 'unsupported_media_type' })
    expect(started()).toBe(0)

    const { execId } = (await (await fetch(`${url}/runs`, jsonPost({ input: 'go' }))).json()) as { execId: string }
    while (gate.pending(execId).length === 0) await new Promise((r) => setTimeout(r, 10))
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain']) {
      const abort = await fetch(`${url}/runs/${execId}/abort`, { method: 'POST', headers: { 'content-type': type } })
      expect((await errorOf(abort)).status).toBe(415)
      const approve = await fetch(`${url}/runs/${execId}/approve`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: 'toolCallId=call_save',
      })
      expect((await errorOf(approve)).status).toBe(415)
    }
    // No content type at all is not JSON either.
    expect((await fetch(`${url}/runs/${execId}/abort`, { method: 'POST' })).status).toBe(415)
    expect(gate.pending(execId)).toHaveLength(1)
    const run = await fetch(`${url}/runs/${execId}`)
    expect(await run.json()).toMatchObject({ live: true })
    expect(started()).toBe(1)
    gate.decide(execId, 'call_save', { approved: true })
  })
})

describe('what a hostile client can send', () => {
  it('a body over maxBodyBytes gets 413 without the rest being read, declared or chunked', async () => {
    const { url, started } = await server({ maxBodyBytes: 1024 })
    const big = JSON.stringify({ input: 'x'.repeat(4096) })
    expect(await errorOf(await fetch(`${url}/runs`, jsonPost(big)))).toMatchObject({ status: 413, code: 'too_large' })
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 512, (i + 1) * 512)))
        controller.close()
      },
    })
    const response = await fetch(`${url}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit)
    expect(await errorOf(response)).toMatchObject({ status: 413, code: 'too_large' })
    expect(started()).toBe(0)
  })

  it('the fetch-style handler alone (Hono, Next.js) reads no body past maxBodyBytes: 413', async () => {
    const runtime = tripRuntime()
    let started = 0
    const routes = runRoutes({
      runtime,
      authorize: () => true,
      maxBodyBytes: 1024,
      start: () => (started++, startTrip(runtime)),
    })
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new TextEncoder().encode(' '.repeat(512)))
      },
    })
    const request = new Request('http://127.0.0.1/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit)
    expect(await errorOf((await routes(request)) as Response)).toMatchObject({ status: 413, code: 'too_large' })
    expect(pulled).toBeLessThan(10)
    expect(started).toBe(0)
  })

  it('an undecodable path gets 400 JSON, not a 500 echoing a URIError', async () => {
    const { url } = await server()
    for (const path of ['/runs/%E0%A4%A', '/runs/%E0%A4%A/events', '/runs/x/%ZZ'])
      expect(await errorOf(await fetch(`${url}${path}`))).toEqual({
        status: 400,
        type: 'application/json',
        code: 'bad_path',
      })
  })

  it('a Host header that is not a host gets 400 JSON; nothing internal is echoed', async () => {
    const { url } = await server()
    for (const host of ['exa mple.com', 'a@b', 'x/y', '[::1'])
      for (const path of ['/runs', '/runs/x']) {
        const answer = await raw(url, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
        expect(answer.status).toBe(400)
        expect(JSON.parse(answer.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''))).toMatchObject({
          error: { code: 'bad_request' },
        })
      }
  })

  it('a handler that throws answers 500 without its message', async () => {
    const { url, close } = await serve(
      toNodeListener(() => {
        throw new Error('connect ECONNREFUSED postgres://admin:hunter2@10.0.0.5')
      }),
    )
    closers.push(close)
    const response = await fetch(`${url}/anything`)
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'internal' } })
    expect(text).not.toContain('hunter2')
  })
})
