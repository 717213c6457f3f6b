import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A server that writes one SSE body cut at exact byte offsets, pausing between pieces so each
 * piece reaches the client as its own read. Used to prove parsing does not depend on boundaries.
 */
export async function startSplitServer(): Promise<{
  url: string
  serve(body: Buffer, cuts: number[]): void
  close(): Promise<void>
}> {
  const plans: { body: Buffer; cuts: number[] }[] = []
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req) void _
    const plan = plans.shift()
    if (!plan) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const offsets = [...new Set(plan.cuts)].filter((c) => c > 0 && c < plan.body.length).sort((a, b) => a - b)
    let from = 0
    for (const to of [...offsets, plan.body.length]) {
      res.write(plan.body.subarray(from, to))
      from = to
      await new Promise((r) => setTimeout(r, 1))
    }
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (body, cuts) => plans.push({ body, cuts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
