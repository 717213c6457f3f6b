// A Chat Completions server with a context window (the shared part is windowed-wire.ts): it counts
// the tokens of the messages and tools it gets and answers past its limit with OpenAI's real
// overflow error. `refuses: false` is Ollama, which truncates silently past its window and says so
// only through `/api/show` (`model_info: { 'llama.context_length': N }`).
import { openai, openaiCompatible } from '@nestor/providers'
import { emptyLog, windowedModel, turn, type Framing, type WindowLog, type WindowOptions } from './windowed-wire.js'
import { sse, startWireServer, type WireResponse, type WireServer } from './wire-server.js'

export { SUMMARIZER_MARK, page } from './windowed-wire.js'

type ChatMessage = { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }
type ChatRequest = { messages: ChatMessage[]; tools?: unknown[] }

export type WindowedServer = WireServer & WindowLog

export const countTokens = (request: ChatRequest): number =>
  Math.ceil((JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length) / 4)

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

export const chatFraming: Required<Framing> = {
  read(body) {
    const request = body as ChatRequest
    const system = request.messages.find((m) => m.role === 'system')?.content
    return {
      ...(typeof system === 'string' ? { system } : {}),
      chars: JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length,
      turns: request.messages.map((m) =>
        turn(
          m,
          (m.tool_calls ?? []).map((c) => c.id),
          m.role === 'tool' ? [m.tool_call_id ?? ''] : [],
        ),
      ),
    }
  },
  answer: (prompt, text) => ({
    body: sse([
      { data: chunk({ role: 'assistant', content: '' }) },
      { data: chunk({ content: text }) },
      { data: chunk({}, 'stop') },
      { data: usage(prompt) },
      '[DONE]',
    ]),
    chunkSize: 4096,
  }),
  call: (prompt, n) => ({
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
  }),
  overflow: (limit, tokens): WireResponse => ({
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
  }),
}

/** Many OpenAI-compatible servers and proxies stream no usage chunk: the same answers without it. */
const withoutUsage = (framing: typeof chatFraming): typeof chatFraming => {
  const strip = (response: WireResponse): WireResponse => ({
    ...response,
    body: String(response.body)
      .split('\n\n')
      .filter((event) => !event.includes('"usage"'))
      .join('\n\n'),
  })
  return {
    ...framing,
    answer: (prompt, text) => strip(framing.answer(prompt, text)),
    call: (prompt, n) => strip(framing.call(prompt, n)),
  }
}

export async function startWindowedServer(
  options: WindowOptions & { pageChars?: number; refuses?: boolean; usage?: boolean },
): Promise<WindowedServer> {
  const framing = options.usage === false ? withoutUsage(chatFraming) : chatFraming
  const { overflow: _overflow, ...silent } = framing
  const server = Object.assign(await startWireServer(), emptyLog())
  const reply = windowedModel(options.refuses === false ? silent : framing, options, server)
  server.fallback = (captured) => {
    if (captured.url === '/api/show')
      return {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          details: { family: 'llama' },
          model_info: { 'llama.context_length': options.limit },
          capabilities: ['completion', 'tools'],
        }),
      }
    return reply(captured)
  }
  return server
}

export const windowedProvider = (server: WireServer) =>
  openai({ baseURL: `${server.url}/v1`, apiKey: 'sk-window-test', maxRetries: 0 })

/** Ollama through the openai-compatible adapter: its window comes from `/api/show`, nothing else. */
export const windowedOllama = (server: WireServer) => openaiCompatible({ baseURL: `${server.url}/v1`, maxRetries: 0 })
