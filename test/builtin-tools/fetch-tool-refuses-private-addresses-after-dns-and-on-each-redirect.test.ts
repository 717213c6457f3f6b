import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchTool, type HostLookup } from '@nestor/tools'
import { call } from './call.js'

const PAGE = `<!doctype html><html><head><title>Lisbon &amp; Porto</title><style>p{color:red}</style>
<script>alert("no")</script></head><body><h1>Trips</h1><p>Sunny, 17&ndash;24&nbsp;&deg;C.<br>Pack a <b>jacket</b>.</p>
<ul><li>Tram <a href="https://example.com/28">line 28</a></li><li>Fado</li></ul><!-- hidden --></body></html>`

const seen: string[] = []
let port = 0
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  seen.push(`${req.method} ${req.headers.host?.split(':')[0]} ${req.url}`)
  const redirect = (to: string) => res.writeHead(302, { location: to }).end()
  switch (req.url) {
    case '/page':
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
    case '/json':
      return res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync('{"ok":true}'))
    case '/big':
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(1_000_000))
    case '/image':
      return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64))
    case '/to-page':
      return redirect('/page')
    case '/to-internal':
      return redirect(`http://internal.test:${port}/secret`)
    case '/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/')
    case '/loop':
      return redirect('/loop')
    default:
      return res.writeHead(404).end('not here')
  }
})

/** A resolver where every name of the test lives on this machine's loopback. */
const lookup: HostLookup = async (hostname) => {
  if (hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }]
  throw new Error(`ENOTFOUND ${hostname}`)
}

beforeAll(async () => {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as AddressInfo).port
})
afterAll(() => void server.close())

describe('fetchTool', () => {
  it('reaches a loopback server only through allowHosts, and answers HTML as readable text', async () => {
    const refused = await call(fetchTool(), 'fetch', { url: `http://127.0.0.1:${port}/page` })
    expect(refused).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback/),
    })
    const tool = fetchTool({ allowHosts: ['127.0.0.1'] })
    const page = await call(tool, 'fetch', { url: `http://127.0.0.1:${port}/page` })
    expect(page.text).toBe(
      `200 OK\nurl: http://127.0.0.1:${port}/page\ncontent-type: text/html; charset=utf-8\n\nLisbon & Porto\n\n# Trips\n\nSunny, 17–24 °C.\nPack a jacket.\n\n- Tram line 28 (https://example.com/28)\n- Fado`,
    )
    expect(page.effect).toMatchObject({ kind: 'fetch', status: 200, bytes: Buffer.byteLength(PAGE), truncated: false })
    expect((await call(tool, 'fetch', { url: `http://127.0.0.1:${port}/json` })).text).toMatch(/\n\n\{"ok":true\}$/)
    expect((await call(tool, 'fetch', { url: `http://127.0.0.1:${port}/image` })).text).toMatch(
      /\(64 bytes of image\/png not shown\)$/,
    )
    const head = await call(tool, 'fetch', { url: `http://127.0.0.1:${port}/page`, method: 'HEAD' })
    expect(head.text).toMatch(/^200 OK\n.*content-type: text\/html; charset=utf-8/s)
    expect((await call(tool, 'fetch', { url: `http://127.0.0.1:${port}/nope` })).text).toMatch(/^404 Not Found/)
  })

  it('refuses a DNS name that resolves to loopback unless that name is allowed, and connects to the address it checked', async () => {
    const refused = await call(fetchTool({ lookup }), 'fetch', { url: `http://evil.test:${port}/page` })
    expect(refused).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^refused: evil\.test resolves to 127\.0\.0\.1/),
    })
    expect(seen.some((line) => line.includes('evil.test'))).toBe(false)
    const allowed = await call(fetchTool({ lookup, allowHosts: ['*.test'] }), 'fetch', {
      url: `http://evil.test:${port}/page`,
    })
    expect(allowed.text).toMatch(/^200 OK/)
    expect(seen.at(-1)).toBe('GET evil.test /page')
  })

  it('checks every redirect again: a redirect to a private name or to link-local metadata is refused, one to an allowed place followed', async () => {
    const tool = fetchTool({ lookup, allowHosts: ['public.test'] })
    seen.length = 0
    expect((await call(tool, 'fetch', { url: `http://public.test:${port}/to-internal` })).text).toMatch(
      /^refused: internal\.test resolves to 127\.0\.0\.1/,
    )
    expect((await call(tool, 'fetch', { url: `http://public.test:${port}/to-metadata` })).text).toMatch(
      /^refused: 169\.254\.169\.254 resolves to 169\.254\.169\.254, a loopback, private or link-local/,
    )
    expect(seen).toEqual(['GET public.test /to-internal', 'GET public.test /to-metadata'])
    const followed = await call(tool, 'fetch', { url: `http://public.test:${port}/to-page` })
    expect(followed.text).toMatch(new RegExp(`^200 OK\\nurl: http://public.test:${port}/page\\n`))
    expect(followed.effect).toMatchObject({
      url: `http://public.test:${port}/to-page`,
      finalUrl: `http://public.test:${port}/page`,
    })
    expect(await call(tool, 'fetch', { url: `http://public.test:${port}/loop` })).toMatchObject({
      isError: true,
      text: 'refused: more than 5 redirects',
    })
  })

  it('refuses every spelling of a local address, other schemes and credentials', async () => {
    const tool = fetchTool()
    for (const host of [
      '[::1]',
      '[::ffff:127.0.0.1]',
      '2130706433',
      '0x7f.1',
      '0',
      '[::]',
      '10.1.2.3',
      '192.168.1.1',
      '172.31.0.1',
      '100.64.0.1',
      '[fd00::1]',
      '[fe80::1]',
      '[64:ff9b::a00:1]',
    ])
      expect((await call(tool, 'fetch', { url: `http://${host}:${port}/page` })).text, host).toMatch(
        /^refused: .* loopback, private or link-local/,
      )
    expect((await call(tool, 'fetch', { url: 'file:///etc/passwd' })).text).toBe(
      'refused: file: URLs are not fetched (http and https only)',
    )
    expect((await call(tool, 'fetch', { url: `http://u:p@127.0.0.1:${port}/` })).text).toBe(
      'refused: URLs with credentials are not fetched',
    )
    expect((await call(tool, 'fetch', { url: 'not a url' })).text).toBe('not a URL: not a url')
  })

  it('reads at most maxBytes of a body and says it cut it', async () => {
    const out = await call(fetchTool({ allowHosts: ['127.0.0.1'], maxBytes: 1000 }), 'fetch', {
      url: `http://127.0.0.1:${port}/big`,
    })
    expect(out.text).toBe(
      `200 OK\nurl: http://127.0.0.1:${port}/big\ncontent-type: text/plain\n\n${'x'.repeat(1000)}\n[body cut at 1000 bytes]`,
    )
    expect(out.effect).toMatchObject({ bytes: 1000, truncated: true })
  })
})
