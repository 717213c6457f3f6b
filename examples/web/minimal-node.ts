// docs/web.md's node:http backend, runnable: `npx tsc -b && node examples/dist/web/minimal-node.js`
// then `curl -N -XPOST localhost:3001/chat -d 'hello'` (SSE) or `…/ui` (AI SDK UI message stream).
import { createServer, type Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { pipeToNodeResponse, runRoutes, sendWebResponse, toUIMessageStreamResponse } from '@nestor/web'

export function minimalServer(): Server {
  const runtime = new Runtime({
    provider: scripted(() => 'Hello from Nestor, streamed over HTTP.', { chunkSize: 4 }),
    model: 'scripted',
  })
  // GET /runs/{id}/events (resume), POST /runs/{id}/steer|followUp|abort|approve|reject|edit.
  // A single-user server on 127.0.0.1 says so: whoever reaches the port reaches every run.
  const routes = runRoutes({ runtime, authorize: () => true })
  return createServer(async (req, res) => {
    if (req.method === 'POST' && (req.url === '/chat' || req.url === '/ui')) {
      let input = ''
      for await (const chunk of req) input += String(chunk)
      const run = runtime.exec(input || 'hello')
      res.setHeader('x-exec-id', run.execId)
      // The run goes on if the client leaves; reconnect with GET /runs/{id}/events + Last-Event-ID.
      if (req.url === '/chat') return pipeToNodeResponse(run, res)
      return sendWebResponse(toUIMessageStreamResponse(run), res)
    }
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
    const response = await routes(
      new Request(new URL(req.url ?? '/', 'http://localhost'), { method: req.method ?? 'GET', headers }),
    )
    return sendWebResponse(response ?? new Response('not found', { status: 404 }), res)
  })
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  minimalServer().listen(3001, '127.0.0.1', () => process.stdout.write('listening on http://127.0.0.1:3001\n'))
}
