import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { NestorError, type Tool } from '@nestor/core'
import { builtinTool, ToolRefusal, withEffect } from '../define.js'
import { hostAllowed, isPrivateAddress } from './address-policy.js'
import { htmlToText } from './html-text.js'
import { requestOnce, type Resolved } from './request.js'

/** Resolves a host name to its addresses (default: the system resolver, as `dns.lookup` with `all`). */
export type HostLookup = (hostname: string) => Promise<Resolved[]>

export type FetchToolOptions = {
  /** Hosts (`api.internal`, `*.corp.example`, `127.0.0.1`) that may be reached although they resolve to private addresses. */
  allowHosts?: string[]
  /** The most body bytes read (after decompression). Default 1 MiB. */
  maxBytes?: number
  /** Per request, redirects included. Default 30 s. */
  timeoutMs?: number
  /** Redirects followed (each one checked again). Default 5. */
  maxRedirects?: number
  /** Each fetch waits for an approval, with the URL as its preview. Default false. */
  needsApproval?: boolean
  lookup?: HostLookup
}

type FetchArgs = { url: string; method?: 'GET' | 'HEAD' }

const systemLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family }))

/** The address to connect to for `url`, after every address its host resolves to is checked. */
async function checkedAddress(url: URL, options: FetchToolOptions, lookup: HostLookup): Promise<Resolved> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolRefusal(`refused: ${url.protocol} URLs are not fetched (http and https only)`)
  if (url.username || url.password) throw new ToolRefusal('refused: URLs with credentials are not fetched')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const allowed = hostAllowed(host, options.allowHosts ?? [])
  const literal = isIP(host)
  const addresses = literal ? [{ address: host, family: literal }] : await lookup(host).catch(() => [])
  if (addresses.length === 0) throw new ToolRefusal(`could not resolve ${host}`)
  // One private address among several refuses the host: the connection could land on any of them.
  const inside = addresses.find((a) => isPrivateAddress(a.address))
  if (inside && !allowed)
    throw new ToolRefusal(
      `refused: ${host} resolves to ${inside.address}, a loopback, private or link-local address (allowHosts lets a host through)`,
    )
  return addresses[0]!
}

export function fetchTool(options: FetchToolOptions = {}): Tool {
  const maxBytes = options.maxBytes ?? 1024 * 1024
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxRedirects = options.maxRedirects ?? 5
  for (const [name, value] of Object.entries({ maxBytes, timeoutMs, maxRedirects }))
    if (!Number.isInteger(value) || value < (name === 'maxRedirects' ? 0 : 1))
      throw new NestorError(
        'invalid_options',
        `invalid option ${name}: expected a positive integer, got ${String(value)}`,
      )
  const lookup = options.lookup ?? systemLookup
  return builtinTool<FetchArgs>({
    name: 'fetch',
    description:
      'Fetch a web page or file over http(s) with GET (the body: HTML as readable text) or HEAD (status and headers). Private and local network addresses are refused.',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'An http:// or https:// URL' },
        method: { type: 'string', enum: ['GET', 'HEAD'], description: 'Default GET' },
      },
      required: ['url'],
    },
    needsApproval: options.needsApproval ?? false,
    prepare: async ({ url, method = 'GET' }) => `${method} ${url}`,
    execute: async ({ url, method = 'GET' }, ctx) => {
      let current: URL
      try {
        current = new URL(url)
      } catch {
        throw new ToolRefusal(`not a URL: ${url}`)
      }
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)])
      for (let hop = 0; ; hop++) {
        const address = await checkedAddress(current, options, lookup)
        const response = await requestOnce(current, method, address, maxBytes, signal)
        const location = response.headers.location
        if (response.status >= 300 && response.status < 400 && typeof location === 'string') {
          if (hop >= maxRedirects) throw new ToolRefusal(`refused: more than ${maxRedirects} redirects`)
          current = new URL(location, current)
          continue
        }
        const type = String(response.headers['content-type'] ?? '')
        const head = `${response.status} ${response.statusText}\nurl: ${current.href}\ncontent-type: ${type || '(none)'}`
        const shown =
          method === 'HEAD'
            ? Object.entries(response.headers)
                .map(([k, v]) => `${k}: ${String(v)}`)
                .join('\n')
            : /html/i.test(type)
              ? htmlToText(response.text)
              : /^(text\/|application\/(json|xml|javascript|[\w.+-]+\+(json|xml)))/i.test(type) || type === ''
                ? response.text
                : `(${response.bytes} bytes of ${type} not shown)`
        const cut = response.truncated ? `\n[body cut at ${maxBytes} bytes]` : ''
        return withEffect(`${head}\n\n${shown}${cut}`, {
          kind: 'fetch',
          url,
          finalUrl: current.href,
          status: response.status,
          bytes: response.bytes,
          truncated: response.truncated,
        })
      }
    },
  })
}
