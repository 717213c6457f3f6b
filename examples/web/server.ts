// A chat page over a Nestor run, served by plain node:http:
//   pnpm web                                        offline: the demo's scripted trip model, any request
//   pnpm web -- --provider openai|anthropic|gemini|ollama [--model M]   live, with your key/server
//   --port N                                        default 3000 (0: any free port)
//   --db FILE                                       where chats are kept (SQLite); default in the temp directory
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  Runtime,
  type ContextOptions,
  type GuardrailOptions,
  type ModelPrices,
  type Provider,
  type SessionStore,
  type Tool,
} from '@nestor/core'
import { sqliteSessions } from '@nestor/sessions/sqlite'
import { ApprovalGate, chatRoutes, runRoutes, toNodeListener } from '@nestor/web'
import { liveProvider, parseArgs, repoRoot } from '../demo/live-provider.js'
import { OFFLINE_PRICED_AS, offlinePrices } from '../demo/offline-prices.js'
import { PLANNER_SYSTEM } from '../demo/trip-agents.js'
import { tripModel, webTools } from './trip-model.js'
import { noCardNumbers } from './card-guardrail.js'

export type WebAppOptions = {
  provider?: Provider
  model?: string
  /** Pause before each streamed delta of the offline model, so the run can be watched. Default 15. */
  paceMs?: number
  /** Heartbeat comment interval on event streams. Default 15000. */
  heartbeatMs?: number
  /** Context management for every run (docs/context.md). Default: none. */
  context?: ContextOptions
  /** The tools each run gets, made fresh per run. Default: the trip planner's. */
  tools?: () => Tool[]
  /** Prices for models the catalogue lacks (docs/cost.md): the page shows each run's dollars. */
  prices?: Record<string, ModelPrices>
  /** Keeps each browser's chat on the server (docs/sessions.md): a run continues it. Default: none. */
  sessions?: SessionStore
  /** Checks on every run (docs/guardrails.md); the page draws each as a step. Default: none. */
  guardrails?: GuardrailOptions
}

export type WebApp = { server: Server; runtime: Runtime; gate: ApprovalGate }

const STATIC: Record<string, string> = {
  '/': 'index.html',
  '/app.js': 'app.js',
  '/style.css': 'style.css',
}
// The question form and the exec tree are @nestor/web's, the same files the studio page loads.
const WEB = join(dirname(createRequire(import.meta.url).resolve('@nestor/web/package.json')), 'src/browser')
const SHARED: Record<string, string> = Object.fromEntries(
  ['answer-form.js', 'exec-tree.js', 'exec-tree.css'].map((name) => [`/${name}`, join(WEB, name)]),
)
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
}

// The session is a random id in an HttpOnly, SameSite=Strict cookie: each browser owns the runs it
// starts, and another browser that learns a run id gets 404 for it, as for an unknown id.
const SESSION = 'nestor_session'
const SESSION_ID = /^[0-9a-f-]{36}$/

/** The page's chat id (a random UUID it keeps), sent with each run it starts. */
const chatOf = (request: Request): string | undefined => {
  const id = request.headers.get('x-chat-id') ?? ''
  return SESSION_ID.test(id) ? id : undefined
}

/** The caller's session id from its cookie; undefined without a (well-formed) one. */
export function sessionOf(request: Request): string | undefined {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = pair.trim().split('=')
    if (name === SESSION && value && SESSION_ID.test(value)) return value
  }
  return undefined
}

/** The app: static files from examples/web/public, the run API under /api/runs, the useChat backend at /api/chat. */
export function createWebApp(options: WebAppOptions = {}): WebApp {
  // Calls that need approval wait for the page's buttons (questions for its forms): the run stays live meanwhile.
  const gate = new ApprovalGate()
  const tools = options.tools ?? (() => webTools([]))
  const runtime = new Runtime({
    provider: options.provider ?? tripModel(options.paceMs ?? 15),
    model: options.model ?? 'scripted-demo',
    system: PLANNER_SYSTEM,
    maxIterations: 20,
    approve: gate.approve,
    // A tool's question (ctx.ask) waits for the page's answer form the same way.
    ask: gate.ask,
    ...(options.context && { context: options.context }),
    ...(options.prices && { prices: options.prices }),
    ...(options.sessions && { sessions: options.sessions }),
    ...(options.guardrails && { guardrails: options.guardrails }),
  })
  const { sessions } = options
  /** With sessions, a run the page starts continues its chat (owned by the browser's cookie). */
  const continuing = (request: Request) => {
    const id = chatOf(request)
    const owner = sessionOf(request)
    return sessions && id && owner ? { session: { id, owner } } : {}
  }
  const api = runRoutes({
    runtime,
    approvals: gate,
    owner: sessionOf,
    prefix: '/api/runs',
    // Each run gets fresh tools (the saved briefs are per run).
    start: (input, request) => runtime.exec(input, { tools: tools(), ...continuing(request) }),
    sse: { heartbeatMs: options.heartbeatMs ?? 15_000 },
  })
  // The AI SDK's useChat backend (POST /api/chat, GET /api/chat/{id}/stream to resume after a reload),
  // its runs owned by the same session and controlled through /api/runs like the page's own.
  const chat = chatRoutes({
    runtime,
    owner: sessionOf,
    api: '/api/chat',
    start: ({ text, session }) => runtime.exec(text || 'Plan a trip', { tools: tools(), ...(session && { session }) }),
    heartbeatMs: options.heartbeatMs ?? 15_000,
    // GET /api/chat/{chatId}/messages: the page's stored chat, for its owner only.
    ...(sessions && { sessions }),
  })
  const publicDir = join(repoRoot(), 'examples', 'web', 'public')
  const listener = toNodeListener(async (request) => {
    const path = new URL(request.url).pathname
    const file = request.method === 'GET' ? (STATIC[path] ?? SHARED[path]) : undefined
    if (file) {
      const body = await readFile(SHARED[path] ?? join(publicDir, file))
      const headers = new Headers({
        'content-type': TYPES[file.split('.').pop() as string] as string,
        'cache-control': 'no-store',
      })
      // The page is where a browser gets its session; the API never hands one out.
      if (!sessionOf(request))
        headers.set('set-cookie', `${SESSION}=${randomUUID()}; HttpOnly; SameSite=Strict; Path=/`)
      return new Response(body, { headers })
    }
    return (await chat(request)) ?? api(request)
  })
  const server = createServer(listener)
  return { server, runtime, gate }
}

/** Starts listening on 127.0.0.1; resolves with the URL. */
export function listen(app: WebApp, port = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    app.server.once('error', reject)
    app.server.listen(port, '127.0.0.1', () => {
      const address = app.server.address()
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/`)
    })
  })
}

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const choice = args.get('provider')
  const options: WebAppOptions = { guardrails: { input: [noCardNumbers] } }
  if (typeof choice === 'string') {
    const live = liveProvider(choice, typeof args.get('model') === 'string' ? (args.get('model') as string) : undefined)
    if (typeof live === 'string') {
      process.stderr.write(`web: ${live}\n`)
      process.exitCode = 2
      return
    }
    options.provider = live.provider
    options.model = live.model
  } else options.prices = await offlinePrices('scripted-demo')
  const db = args.get('db')
  options.sessions = sqliteSessions({ path: typeof db === 'string' ? db : join(tmpdir(), 'nestor-web-chats.db') })
  const port = Number(args.get('port') ?? 3000)
  const url = await listen(createWebApp(options), port)
  process.stdout.write(
    `nestor web — ${typeof choice === 'string' ? choice : `offline scripted trip model, priced at ${OFFLINE_PRICED_AS} rates (live: --provider openai|anthropic|gemini|ollama)`}\nopen ${url}\n`,
  )
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void main(process.argv.slice(2))
