// A Chat Completions server with a context window: it counts the tokens of each request it gets
// (deterministically: a token per 4 characters of its messages and tools, a different rule from
// Nestor's estimate on purpose) and answers past its limit with OpenAI's real overflow error. Under
// the limit it plays a research model that reads pages 1..pages, one call per turn, then answers.
import { openai } from '@nestor/providers'
import { sse, startWireServer, type CapturedRequest, type WireResponse, type WireServer } from './wire-server.js'

type ChatMessage = { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }
type ChatRequest = { messages: ChatMessage[]; tools?: unknown[] }

export const SUMMARIZER_MARK = 'You write the working memory'

export type WindowedServer = WireServer & {
  /** The token count of each request, in order, and the ones refused as too long. */
  counted: number[]
  refused: number
  /** Requests that broke a tool call from its result (the server checks every one). */
  broken: string[]
}

export const countTokens = (request: ChatRequest): number =>
  Math.ceil((JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length) / 4)

export async function startWindowedServer(options: { limit: number; pages: number; pageChars: number }) {
  const server = (await startWireServer()) as WindowedServer
  server.counted = []
  server.refused = 0
  server.broken = []
  server.fallback = (captured: CapturedRequest): WireResponse => {
    const request = captured.json as ChatRequest
    const tokens = countTokens(request)
    server.counted.push(tokens)
    const problem = pairingProblem(request.messages)
    if (problem) server.broken.push(problem)
    if (tokens > options.limit) {
      server.refused++
      return overflowResponse(options.limit, tokens)
    }
    const system = request.messages.find((m) => m.role === 'system')
    if (typeof system?.content === 'string' && system.content.startsWith(SUMMARIZER_MARK))
      return answer(tokens, `Pages read so far: ${summarized(JSON.stringify(request.messages)).join(', ')}.`)
    const lastPage = Math.max(0, ...pagesIn(JSON.stringify(request.messages.slice(-3))))
    if (lastPage >= options.pages) return answer(tokens, `Read all ${options.pages} pages.`)
    return readCall(tokens, lastPage + 1)
  }
  return server
}

/** The page a read_page tool returns: its number, then filler of `chars` characters. */
export const page = (n: number, chars: number): string => `PAGE ${n}: ${'lorem ipsum '.repeat(chars / 12)}`

/** The pages a transcript shows, with those an earlier summary in it lists (a summary of a summary). */
const summarized = (text: string): number[] => {
  const earlier =
    text
      .match(/Pages read so far: ([\d, ]+)/)?.[1]
      ?.split(', ')
      .map(Number) ?? []
  return [...new Set([...earlier, ...pagesIn(text)])].sort((a, b) => a - b)
}

const pagesIn = (text: string): number[] => [...text.matchAll(/PAGE (\d+):/g)].map((m) => Number(m[1]))

function overflowResponse(limit: number, tokens: number): WireResponse {
  return {
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error: {
        message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    }),
  }
}

const base = { id: 'chatcmpl-window', object: 'chat.completion.chunk', created: 1780000000, model: 'gpt-4o-mini' }
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const usage = (prompt: number) => ({
  ...base,
  choices: [],
  usage: { prompt_tokens: prompt, completion_tokens: 12, total_tokens: prompt + 12 },
})

const answer = (prompt: number, text: string): WireResponse => ({
  body: sse([
    { data: chunk({ role: 'assistant', content: '' }) },
    { data: chunk({ content: text }) },
    { data: chunk({}, 'stop') },
    { data: usage(prompt) },
    '[DONE]',
  ]),
  chunkSize: 4096,
})

const readCall = (prompt: number, n: number): WireResponse => ({
  body: sse([
    { data: chunk({ role: 'assistant', content: null }) },
    {
      data: chunk({
        tool_calls: [
          { index: 0, id: `call_${n}`, type: 'function', function: { name: 'read_page', arguments: `{"n":${n}}` } },
        ],
      }),
    },
    { data: chunk({}, 'tool_calls') },
    { data: usage(prompt) },
    '[DONE]',
  ]),
  chunkSize: 4096,
})

function pairingProblem(messages: ChatMessage[]): string | undefined {
  const open = new Set<string>()
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (!open.delete(message.tool_call_id ?? '')) return `message ${index} answers an unknown call`
    } else if (open.size > 0) return `a call has no result before message ${index}`
    for (const call of message.tool_calls ?? []) open.add(call.id)
  }
  return undefined
}

export const windowedProvider = (server: WireServer) =>
  openai({ baseURL: `${server.url}/v1`, apiKey: 'sk-window-test', maxRetries: 0 })
