import { request, type IncomingHttpHeaders } from 'node:http'
import { Readable } from 'node:stream'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

/**
 * A fetch for the SDK's client transport that resolves every name to 127.0.0.1, as a rebound DNS
 * name does: the URL's host (say evil.example) is what the server sees as `Host`.
 */
export function rebindingFetch(): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      const headers = Object.fromEntries(new Headers(init?.headers).entries())
      const req = request(
        url,
        {
          method: init?.method ?? 'GET',
          headers,
          lookup: (_host, options, callback) =>
            options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4),
        },
        (res) => {
          const body = res.statusCode === 204 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
          resolve(new Response(body, { status: res.statusCode ?? 500, headers: toHeaders(res.headers) }))
        },
      )
      req.on('error', reject)
      init?.signal?.addEventListener('abort', () => req.destroy(), { once: true })
      req.end(typeof init?.body === 'string' ? init.body : undefined)
    })
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw))
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.append(name, v)
  return headers
}

/** Connects the SDK's own client to `url`; the promise rejects with the SDK's error when refused. */
export async function connectClient(url: URL, init: { headers?: Record<string, string>; fetch?: typeof fetch } = {}) {
  const client = new Client({ name: 'probe', version: '1' })
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      ...(init.headers && { requestInit: { headers: init.headers } }),
      ...(init.fetch && { fetch: init.fetch }),
    }),
  )
  return client
}

/** The same endpoint under another name that resolves to this machine. */
export function renamed(url: URL, hostname: string): URL {
  const other = new URL(url)
  other.hostname = hostname
  return other
}

/** A raw request: status, headers and the parsed JSON body. */
export async function post(
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, json: text.startsWith('{') ? JSON.parse(text) : text }
}

export const initialize = (id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
})
