import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Runtime, defineTool, type Provider } from '@nestor/core'
import { serveMcp } from '@nestor/mcp'

// Heap held by abandoned MCP sessions of `serveMcp` over HTTP: N clients initialize and vanish
// without a DELETE. With `sessionIdleMs` they are closed once idle; with Infinity (the behaviour
// before sessions expired) they stay until close(). Both regimes run in this process, one after
// the other, against the same baseline.
//   tsc -b && node bench/dist/mcp-sessions.js        (BENCH_SESSIONS=1000, BENCH_IDLE_MS=1000)

setFlagsFromString('--expose_gc')
const gc = runInNewContext('gc') as () => void

const SESSIONS = Number(process.env['BENCH_SESSIONS'] ?? 1000)
const IDLE_MS = Number(process.env['BENCH_IDLE_MS'] ?? 1000)

const provider: Provider = {
  name: 'none',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('no model in this benchmark')
  },
}
const runtime = new Runtime({ provider, model: 'm' })
const ping = defineTool({ name: 'ping', description: 'Pings', parameters: { type: 'object' }, execute: () => 'pong' })

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
})
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

function heapMiB(): number {
  for (let i = 0; i < 3; i++) gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/** Initialize, initialized, then nothing: a client that went away without ending its session. */
async function abandon(url: URL): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers, body: initialize })
  const id = res.headers.get('mcp-session-id')
  await res.text()
  if (res.status !== 200 || !id) throw new Error(`initialize got ${res.status}`)
  const note = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  })
  await note.text()
  return id
}

async function known(url: URL, id: string): Promise<boolean> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  })
  await res.text()
  return res.status !== 404
}

async function regime(sessionIdleMs: number) {
  const serving = await serveMcp(
    { runtime, tools: [ping] },
    { http: true, port: 0, maxSessions: SESSIONS * 2, sessionIdleMs },
  )
  const url = serving.url!
  await known(url, await abandon(url)) // one session first: code paths warm, not counted
  const before = heapMiB()
  const ids: string[] = []
  const opening = Date.now()
  // Ten at a time: 1,000 sockets at once would measure the kernel, not the sessions.
  for (let i = 0; i < SESSIONS; i += 10)
    ids.push(...(await Promise.all(Array.from({ length: Math.min(10, SESSIONS - i) }, () => abandon(url)))))
  const openedMs = Date.now() - opening
  const held = heapMiB()
  const started = Date.now()
  // The last session opened is the last to expire; asking about it would keep it alive, so wait.
  await new Promise((resolve) => setTimeout(resolve, Number.isFinite(sessionIdleMs) ? sessionIdleMs * 2.5 : 2500))
  const after = heapMiB()
  const left = (await Promise.all([ids[0]!, ids.at(-1)!].map((id) => known(url, id)))).filter(Boolean).length
  await serving.close()
  return { before, held, after, openedMs, waitedMs: Date.now() - started, left }
}

const expiring = await regime(IDLE_MS)
const kept = await regime(Infinity)
const row = (name: string, r: typeof expiring) =>
  `| ${name} | ${r.before.toFixed(1)} | ${r.held.toFixed(1)} | ${(((r.held - r.before) * 2 ** 20) / SESSIONS / 1024).toFixed(1)} | ${r.after.toFixed(1)} | ${(r.after - r.before).toFixed(2)} | ${r.left}/2 | ${r.openedMs} ms |`
console.log(`${SESSIONS} abandoned sessions (initialize + initialized, no DELETE), heap after gc, MiB\n`)
console.log(
  '| sessionIdleMs | before | with sessions | KiB per session | after idle wait | retained | sampled still open | opening took |',
)
console.log('|---|---|---|---|---|---|---|---|')
console.log(row(String(IDLE_MS), expiring))
console.log(row('Infinity', kept))
console.log(
  '\nWith expiry, sessions opened early expire while the last ones open: its "with sessions" is lower; the Infinity row gives the cost of a live session.',
)
console.log(
  `retained after the idle wait: ${(expiring.after - expiring.before).toFixed(2)} MiB with expiry vs ${(kept.after - kept.before).toFixed(2)} MiB without (${((expiring.after - expiring.before) / (kept.after - kept.before)).toFixed(3)} of it)`,
)
