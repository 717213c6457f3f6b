// @nestor/web from the packed tarball: runRoutes on node:http at 127.0.0.1, started and streamed
// over real HTTP by fetch; a caller who does not own the run is answered 404.
import { createServer } from 'node:http'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers/testing'
import { runRoutes, toNodeListener } from '@nestor/web'

const runtime = new Runtime({ provider: scripted(['Hello over HTTP.']), model: 'test' })
const routes = runRoutes({
  runtime,
  start: (input) => runtime.exec(input),
  owner: (request) => request.headers.get('x-user') ?? undefined,
})
const server = createServer(toNodeListener(routes))
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const base = `http://127.0.0.1:${server.address().port}`
try {
  const started = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': 'ada' },
    body: JSON.stringify({ input: 'hi' }),
  })
  const { execId } = await started.json()
  const events = await fetch(`${base}/runs/${execId}/events`, { headers: { 'x-user': 'ada' } })
  const stream = await events.text()
  const stranger = await fetch(`${base}/runs/${execId}/events`, { headers: { 'x-user': 'bob' } })
  console.log(
    JSON.stringify({
      started: started.status,
      events: events.status,
      contentType: events.headers.get('content-type'),
      text: [...stream.matchAll(/"kind":"text","text":"([^"]*)"/g)].map((m) => m[1]).join(''),
      ended: stream.includes('event: end'),
      stranger: { status: stranger.status, body: await stranger.json() },
    }),
  )
} finally {
  server.close()
}
