import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { Readable } from 'node:stream'
import { ToolRefusal } from '../define.js'

export type Resolved = { address: string; family: number }

export type FetchedResponse = {
  status: number
  statusText: string
  headers: IncomingHttpHeaders
  text: string
  bytes: number
  truncated: boolean
}

/** Connects to the checked address only: the host name is never resolved again (no DNS rebinding). */
const pinned = (to: Resolved): LookupFunction =>
  ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [to])
    else callback(null, to.address, to.family)
  }) as LookupFunction

const decoded = (body: Readable, encoding: string | undefined): Readable => {
  if (encoding === 'gzip' || encoding === 'x-gzip') return body.pipe(createGunzip())
  if (encoding === 'deflate') return body.pipe(createInflate())
  if (encoding === 'br') return body.pipe(createBrotliDecompress())
  return body
}

const charsetOf = (type: string): string => /charset=["']?([\w-]+)/i.exec(type)?.[1]?.toLowerCase() ?? 'utf-8'

/** One request, no redirect followed; at most `maxBytes` of the (decompressed) body are read. */
export function requestOnce(
  url: URL,
  method: 'GET' | 'HEAD',
  address: Resolved,
  maxBytes: number,
  signal: AbortSignal,
): Promise<FetchedResponse> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method,
        signal,
        lookup: pinned(address),
        headers: {
          'user-agent': 'nestor-fetch/0.1',
          accept: 'text/html,text/*;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0
        const base = { status, statusText: res.statusMessage ?? '', headers: res.headers }
        if (method === 'HEAD' || (status >= 300 && status < 400 && res.headers.location)) {
          res.resume()
          return resolve({ ...base, text: '', bytes: 0, truncated: false })
        }
        const chunks: Buffer[] = []
        let bytes = 0
        let truncated = false
        const body = decoded(res, res.headers['content-encoding']?.toLowerCase())
        const finish = () => {
          let text: string
          try {
            text = new TextDecoder(charsetOf(String(res.headers['content-type'] ?? ''))).decode(Buffer.concat(chunks))
          } catch {
            text = Buffer.concat(chunks).toString('utf8')
          }
          resolve({ ...base, text, bytes, truncated })
        }
        body.on('data', (chunk: Buffer) => {
          if (truncated) return
          const room = maxBytes - bytes
          if (chunk.length <= room) {
            chunks.push(chunk)
            bytes += chunk.length
            return
          }
          // Enough read: the rest is never downloaded.
          chunks.push(chunk.subarray(0, room))
          bytes += room
          truncated = true
          res.destroy()
          finish()
        })
        body.on('end', finish)
        body.on('error', (error) =>
          truncated ? undefined : reject(new ToolRefusal(`the body could not be read: ${error.message}`)),
        )
        res.on('error', (error) =>
          truncated ? undefined : reject(new ToolRefusal(`the body could not be read: ${error.message}`)),
        )
      },
    )
    req.on('error', (error) => {
      const why = signal.aborted ? 'timed out or aborted' : error.message
      reject(new ToolRefusal(`fetch of ${url.href} failed: ${why}`))
    })
    req.end()
  })
}
