import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A real HTTP server that writes each queued SSE body split at given byte offsets, waiting for each
 * piece to be flushed before the next, so the client really reads the pieces apart. Offsets may
 * fall inside a multi-byte UTF-8 character or an SSE line: that is the point.
 */
export async function startSplitServer(): Promise<{
  url: string
  serve(body: string | Buffer, cuts: number[]): void
  close(): Promise<void>
}> {
  const jobs: { bytes: Buffer; cuts: number[] }[] = []
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req) void _
    const job = jobs.shift()
    if (!job) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
    const points = [...new Set(job.cuts.filter((c) => c > 0 && c < job.bytes.length))].sort((a, b) => a - b)
    let start = 0
    for (const end of [...points, job.bytes.length]) {
      await new Promise<void>((resolve) => res.write(job.bytes.subarray(start, end), () => setImmediate(resolve)))
      start = end
    }
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (body, cuts) => {
      jobs.push({ bytes: typeof body === 'string' ? Buffer.from(body, 'utf8') : body, cuts })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
