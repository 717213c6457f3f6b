import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Socket } from 'node:net'
import {
  MODEL,
  echoArguments,
  echoResult,
  expectedText,
  fragments,
  parseMarker,
  textChunks,
  type Scenario,
} from './scenario.js'

// A local LLM stand-in speaking OpenAI Chat Completions and Anthropic Messages streaming.
// It keeps no per-conversation state: each answer is a function of the request body (the marker
// in the latest user message that has one, and how many tool results follow it), so every
// framework sees byte-identical traffic for the same scenario.

export type MockServer = {
  url: string
  /** OpenAI-style base URL (`…/v1`), what the SDKs take as `baseURL`. */
  baseURL: string
  port: number
  stats: { requests: number; mismatches: number }
  close(): Promise<void>
}

/** What the server decided to send for one request, independent of the dialect. */
type Reply = { kind: 'toolCall'; id: string; name: string; argFragments: string[] } | { kind: 'text'; chunks: string[] }

type Dialect = 'openai' | 'anthropic'

/** A conversation reduced to what decides the reply: the marker and the tool results after it. */
type Reading = { scenario: Scenario; toolResults: string[] }

export async function startMockServer(port = 0): Promise<MockServer> {
  const stats = { requests: 0, mismatches: 0 }
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    handle(req, res, stats).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: String(err), type: 'server_error' } }))
    })
  })
  server.keepAliveTimeout = 60_000
  server.on('connection', (socket) => {
    socket.setNoDelay(true)
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const actual = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${actual}`
  return {
    url,
    baseURL: `${url}/v1`,
    port: actual,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, stats: MockServer['stats']): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const url = req.url ?? '/'
  const dialect: Dialect | undefined = url.endsWith('/chat/completions')
    ? 'openai'
    : url.endsWith('/messages')
      ? 'anthropic'
      : undefined
  if (req.method !== 'POST' || !dialect) {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { message: `mock server: no route ${req.method} ${url}`, type: 'not_found' } }))
    return
  }
  stats.requests++
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
  const reading = dialect === 'openai' ? readOpenAI(body) : readAnthropic(body)
  if (!reading) {
    res.writeHead(400, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        error: { message: 'mock server: no [[bench …]] marker in any user message', type: 'invalid_request_error' },
      }),
    )
    return
  }
  const reply = decide(reading, stats)
  const inputTokens = Math.ceil(chunks.reduce((n, c) => n + c.length, 0) / 4)
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const frames = dialect === 'openai' ? openAIFrames(reply, inputTokens) : anthropicFrames(reply, inputTokens)
  // One write per SSE event, as a real server flushes them: clients parse many small chunks.
  for (const frame of frames) res.write(frame)
  res.end()
}

/** The turn is the number of tool results after the marker; each must echo what its call asked. */
function decide({ scenario, toolResults }: Reading, stats: MockServer['stats']): Reply {
  for (let i = 0; i < toolResults.length; i++) {
    // A `spawn` result is the child's whole answer, so it proves the child finished too.
    const want = scenario.kind === 'tools' ? echoResult(i) : expectedText(scenario.c)
    if (!toolResults[i]?.includes(want)) {
      stats.mismatches++
      return {
        kind: 'text',
        chunks: [
          `MISMATCH: tool result ${i} should contain ${want}, got ${JSON.stringify(toolResults[i]).slice(0, 200)}`,
        ],
      }
    }
  }
  const turn = toolResults.length
  if (scenario.kind === 'tools') {
    if (turn < scenario.t)
      return {
        kind: 'toolCall',
        id: `call_b${turn}`,
        name: 'echo',
        argFragments: fragments(echoArguments(turn, scenario.mcp)),
      }
    return { kind: 'text', chunks: textChunks(scenario.c) }
  }
  if (scenario.depth < scenario.max && turn === 0) {
    return {
      kind: 'toolCall',
      id: `call_d${scenario.depth}`,
      name: 'spawn',
      argFragments: fragments(JSON.stringify({ depth: scenario.depth + 1 }), 3),
    }
  }
  return { kind: 'text', chunks: textChunks(scenario.c) }
}

// ─── Reading requests ────────────────────────────────────────────────────────

type Json = Record<string, unknown>
const asArray = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : [])

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  return asArray(content)
    .map((part) =>
      typeof part.text === 'string'
        ? part.text
        : typeof part.content === 'string'
          ? part.content
          : textOf(part.content),
    )
    .join('')
}

function readOpenAI(body: Json): Reading | undefined {
  const messages = asArray(body.messages)
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role !== 'user') continue
    const scenario = parseMarker(textOf(m.content))
    if (!scenario) continue
    const toolResults = messages
      .slice(i + 1)
      .filter((x) => x.role === 'tool')
      .map((x) => textOf(x.content))
    return { scenario, toolResults }
  }
  return undefined
}

function readAnthropic(body: Json): Reading | undefined {
  const messages = asArray(body.messages)
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role !== 'user') continue
    const text =
      typeof m.content === 'string'
        ? m.content
        : asArray(m.content)
            .filter((b) => b.type === 'text')
            .map((b) => String(b.text))
            .join('')
    const scenario = parseMarker(text)
    if (!scenario) continue
    const toolResults: string[] = []
    for (const later of messages.slice(i + 1)) {
      for (const block of asArray(later.content))
        if (block.type === 'tool_result') toolResults.push(textOf(block.content))
    }
    return { scenario, toolResults }
  }
  return undefined
}

// ─── Writing replies ─────────────────────────────────────────────────────────

const sse = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`

function openAIFrames(reply: Reply, inputTokens: number): string[] {
  const base = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: MODEL,
    system_fingerprint: 'fp_bench',
  }
  const chunk = (delta: Json, finish: string | null = null): string =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })
  const frames = [chunk({ role: 'assistant', content: '' })]
  let outputTokens: number
  if (reply.kind === 'toolCall') {
    frames.push(
      chunk({
        tool_calls: [{ index: 0, id: reply.id, type: 'function', function: { name: reply.name, arguments: '' } }],
      }),
    )
    for (const f of reply.argFragments) frames.push(chunk({ tool_calls: [{ index: 0, function: { arguments: f } }] }))
    frames.push(chunk({}, 'tool_calls'))
    outputTokens = reply.argFragments.length
  } else {
    for (const c of reply.chunks) frames.push(chunk({ content: c }))
    frames.push(chunk({}, 'stop'))
    outputTokens = reply.chunks.length
  }
  frames.push(
    sse({
      ...base,
      choices: [],
      usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    }),
  )
  frames.push('data: [DONE]\n\n')
  return frames
}

const event = (name: string, data: Json): string =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`

function anthropicFrames(reply: Reply, inputTokens: number): string[] {
  const frames = [
    event('message_start', {
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: MODEL,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    }),
  ]
  let outputTokens: number
  let stop: string
  if (reply.kind === 'toolCall') {
    frames.push(
      event('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: reply.id.replace('call_', 'toolu_'), name: reply.name, input: {} },
      }),
    )
    for (const f of reply.argFragments)
      frames.push(event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: f } }))
    outputTokens = reply.argFragments.length
    stop = 'tool_use'
  } else {
    frames.push(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }))
    for (const c of reply.chunks)
      frames.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: c } }))
    outputTokens = reply.chunks.length
    stop = 'end_turn'
  }
  frames.push(event('content_block_stop', { index: 0 }))
  frames.push(
    event('message_delta', {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
  )
  frames.push(event('message_stop', {}))
  return frames
}
