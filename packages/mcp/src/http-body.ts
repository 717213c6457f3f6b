import type { IncomingMessage } from 'node:http'

/** The default `maxBodyBytes`: the MCP SDK's own bound on a request body. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024

export type BodyRead = { tooLarge: true } | { tooLarge: false; text: string }

/**
 * Reads a request body up to `maxBytes`. A declared `Content-Length` over the bound is refused
 * before a byte is read; a body that grows past it is refused at the chunk that crosses it, and
 * the rest is left unread (the caller answers with `Connection: close`).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve({ tooLarge: true })
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    const done = (read: BodyRead) => {
      req.off('data', onData).off('end', onEnd).off('error', onError)
      resolve(read)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > maxBytes) {
        req.pause()
        done({ tooLarge: true })
      } else chunks.push(chunk)
    }
    const onEnd = () => done({ tooLarge: false, text: Buffer.concat(chunks).toString('utf8') })
    const onError = (error: Error) => {
      req.off('data', onData).off('end', onEnd)
      reject(error)
    }
    req.on('data', onData).on('end', onEnd).on('error', onError)
  })
}
