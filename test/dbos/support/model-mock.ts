import { sse, startWireServer, type CapturedRequest, type WireServer } from '../../support/wire-server.js'

// A stateless OpenAI Chat Completions mock: the answer depends only on the request (which system
// prompt, how many tool results so far), so a recovered worker gets the same answers, and every
// request is logged so a test can count model calls.

type ChatMessage = { role: string; content?: unknown }
const base = { id: 'chatcmpl-dbos', object: 'chat.completion.chunk', created: 1780000000, model: 'mock-model' }
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const usage = { ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }

const text = (answer: string) =>
  sse([
    { data: chunk({ role: 'assistant', content: '' }) },
    { data: chunk({ content: answer }) },
    { data: chunk({}, 'stop') },
    { data: usage },
    '[DONE]',
  ])
const call = (id: string, name: string, args: Record<string, unknown>) =>
  sse([
    { data: chunk({ role: 'assistant', content: null }) },
    {
      data: chunk({
        tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
      }),
    },
    { data: chunk({}, 'tool_calls') },
    { data: usage },
    '[DONE]',
  ])

const textOf = (m: ChatMessage) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))

/** What the scripted model says to a request (see the scenarios in worker.mjs). */
export function answer(request: CapturedRequest): string {
  const messages = ((request.json as { messages?: ChatMessage[] })?.messages ?? []) as ChatMessage[]
  const system = messages
    .filter((m) => m.role === 'system')
    .map(textOf)
    .join(' ')
  const tools = messages.filter((m) => m.role === 'tool').length
  const users = messages.filter((m) => m.role === 'user').map(textOf)
  if (system.includes('researcher'))
    return tools === 0 ? call('call_lookup', 'lookup', { city: 'Lisbon' }) : text('trams and tiles')
  if (system.includes('planner')) {
    if (tools === 0) return call('call_research', 'research', { city: 'Lisbon' })
    if (tools === 1) return call('call_book', 'book', { city: 'Lisbon' })
    const last =
      messages
        .filter((m) => m.role === 'tool')
        .map(textOf)
        .at(-1) ?? ''
    return text(`Plan for Lisbon done (${last.slice(0, 60)}) users=${users.length} ${users.slice(1).join('|')}`)
  }
  // 'pay': one charge through the payments API, then an answer quoting its result.
  if (system.includes('payer'))
    return tools === 0
      ? call('call_pay', 'pay', { amount: 120 })
      : text(
          `paid: ${messages
            .filter((m) => m.role === 'tool')
            .map(textOf)
            .join('')}`,
        )
  // 'quick': one leaf call, then an answer naming the input.
  return tools === 0 ? call('call_lookup', 'lookup', { city: users[0] ?? '' }) : text(`ok ${users[0] ?? ''}`)
}

export type ModelMock = WireServer & { calls(): number }

export async function startModelMock(onRequest?: (count: number) => void | Promise<void>): Promise<ModelMock> {
  const wire = await startWireServer()
  wire.fallback = (request) => {
    void onRequest?.(wire.requests.length)
    // An input starting with 'unreachable' gets a 503: the provider down (the workers do not retry).
    if (JSON.stringify(request.json ?? '').includes('"content":"unreachable'))
      return { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"down"}}' }
    const body = answer(request)
    // An input starting with 'slow' makes the first answer take about two seconds: time to steer.
    const first = JSON.stringify(request.json ?? '').includes('"content":"slow') && !request.body.includes('"tool"')
    return { headers: { 'content-type': 'text/event-stream' }, body, ...(first ? { chunkSize: 60, delayMs: 200 } : {}) }
  }
  return Object.assign(wire, { calls: () => wire.requests.length })
}
