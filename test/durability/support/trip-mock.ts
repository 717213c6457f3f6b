import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

// A local stand-in for the OpenAI Chat Completions API for the durability tests. Each answer is a
// function of the request alone (which exec asks: its first user message; which turn: how many
// tool results it already holds), so an interrupted run and an uninterrupted one get the same
// bytes, with the same tool call ids. Every request is logged; requests can be held unanswered.

type Call = { id: string; name: string; args: Record<string, unknown> }
type Reply = { calls: Call[] } | { text: string }

/** The trip: the root delegates (two levels of nesting below it) and fetches a rate; 6 model turns. */
function reply(first: string, results: string[]): Reply {
  if (first.startsWith('plan'))
    return results.length === 0
      ? {
          calls: [
            { id: 'call_root_1', name: 'delegate', args: { topic: 'lisbon' } },
            { id: 'call_root_2', name: 'fetch_rate', args: { currency: 'EUR' } },
          ],
        }
      : { text: `Trip planned: ${results.join(' | ')}` }
  if (first.startsWith('research'))
    return results.length === 0
      ? {
          calls: [
            { id: 'call_d1_1', name: 'deeper', args: { item: 'hotel' } },
            { id: 'call_d1_2', name: 'stamp', args: { note: 'researched' } },
          ],
        }
      : { text: `research done: ${results.join(', ')}` }
  if (first.startsWith('book'))
    return results.length === 0
      ? { calls: [{ id: 'call_d2_1', name: 'charge', args: { amount: 120 } }] }
      : { text: `booked (${results.join(', ')})` }
  return { text: `MISMATCH: unknown conversation ${first}` }
}

export type LoggedRequest = { index: number; exec: string; toolResults: number; body: string }

export type TripMock = {
  baseURL: string
  requests: LoggedRequest[]
  /** Requests from this index on (0-based) are held: no answer, the connection stays open. */
  holdFrom: number
  /** Resolves when `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>
  close(): Promise<void>
}

type ChatBody = { messages: { role: string; content: unknown }[] }

export async function startTripMock(): Promise<TripMock> {
  const sockets = new Set<Socket>()
  const waiters: { count: number; resolve: () => void }[] = []
  const mock: TripMock = {
    baseURL: '',
    requests: [],
    holdFrom: Infinity,
    waitForRequests: (count) =>
      mock.requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const parsed = JSON.parse(body) as ChatBody
      const first = parsed.messages.find((m) => m.role === 'user')
      const exec = typeof first?.content === 'string' ? first.content : ''
      const results = parsed.messages.filter((m) => m.role === 'tool').map((m) => String(m.content))
      const index = mock.requests.length
      mock.requests.push({ index, exec, toolResults: results.length, body })
      for (const w of waiters.filter((w) => mock.requests.length >= w.count)) w.resolve()
      if (index >= mock.holdFrom) return
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(stream(reply(exec, results)))
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  mock.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return mock
}

const base = { id: 'chatcmpl-trip', object: 'chat.completion.chunk', created: 1780000000, model: 'trip-model' }
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`

function stream(r: Reply): string {
  let out = chunk({ role: 'assistant', content: 'calls' in r ? null : '' })
  if ('calls' in r) {
    r.calls.forEach((c, index) => {
      out += chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] })
      out += chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify(c.args) } }] })
    })
    out += chunk({}, 'tool_calls')
  } else {
    for (const piece of r.text.match(/.{1,12}/gs) ?? []) out += chunk({ content: piece })
    out += chunk({}, 'stop')
  }
  out += `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 40, completion_tokens: 10, total_tokens: 50 } })}\n\n`
  return out + 'data: [DONE]\n\n'
}
