import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

// A small payments API on 127.0.0.1, deduplicating like Stripe does: a POST /v1/charges with an
// Idempotency-Key it has seen returns the charge it made then, and charges nothing. It can make a
// charge and then hold the answer (the connection stays open): the charge happened, and the caller
// never learns it, which is where a SIGKILL hurts a tool that has no idempotency key.

export type Charge = { id: string; amount: number; key: string }

export type PaymentsApi = {
  url: string
  /** Charges made, once per key. */
  charges: Charge[]
  /** The Idempotency-Key of every POST that reached the API, in order (repeats included). */
  keys: string[]
  /** Holds the answer of the nth charge made (1-based) and of every one after it. */
  holdFrom: number
  waitForCharges(count: number): Promise<void>
  close(): Promise<void>
}

const MAX_BODY = 4096

export async function startPaymentsApi(): Promise<PaymentsApi> {
  const sockets = new Set<Socket>()
  const byKey = new Map<string, Charge>()
  const waiters: { count: number; resolve: () => void }[] = []
  const api: PaymentsApi = {
    url: '',
    charges: [],
    keys: [],
    holdFrom: Infinity,
    waitForCharges: (count) =>
      api.charges.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  const reply = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== '/v1/charges') return reply(res, 404, { error: 'not found' })
    const key = req.headers['idempotency-key']
    if (typeof key !== 'string' || key === '' || key.length > 255)
      return reply(res, 400, { error: 'an Idempotency-Key header of 1 to 255 characters is required' })
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) req.destroy()
      else chunks.push(chunk)
    })
    req.on('end', () => {
      let amount: unknown
      try {
        amount = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { amount?: unknown }).amount
      } catch {
        return reply(res, 400, { error: 'the body must be JSON' })
      }
      if (typeof amount !== 'number' || !(amount > 0)) return reply(res, 400, { error: 'amount must be positive' })
      api.keys.push(key)
      const seen = byKey.get(key)
      if (seen) return reply(res, 200, seen, { 'idempotent-replayed': 'true' })
      const charge: Charge = { id: `ch_${api.charges.length + 1}`, amount, key }
      byKey.set(key, charge)
      api.charges.push(charge)
      for (const waiter of waiters.filter((w) => api.charges.length >= w.count)) waiter.resolve()
      if (api.charges.length >= api.holdFrom) return
      reply(res, 200, charge)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return api
}
