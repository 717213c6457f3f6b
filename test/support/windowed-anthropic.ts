// An Anthropic Messages server with a context window (the shared part is windowed-wire.ts): past
// its limit it answers HTTP 400 "prompt is too long: N tokens > M maximum", as the API does.
import { anthropic } from '@nestor/providers'
import { emptyLog, windowedModel, turn, type Framing, type WindowLog, type WindowOptions } from './windowed-wire.js'
import { sse, startWireServer, type WireServer } from './wire-server.js'

type Block = { type: string; id?: string; tool_use_id?: string; text?: string; cache_control?: unknown }
type Body = {
  system?: string | Block[]
  messages: { role: string; content: string | Block[] }[]
  tools?: unknown[]
}

const blocks = (content: string | Block[]): Block[] => (typeof content === 'string' ? [] : content)
const ids = (content: string | Block[], type: string, key: 'id' | 'tool_use_id') =>
  blocks(content)
    .filter((b) => b.type === type)
    .map((b) => b[key] ?? '')

export const start = (prompt: number) => ({
  event: 'message_start',
  data: {
    type: 'message_start',
    message: {
      id: 'msg_window',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: prompt, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  },
})
export const end = (reason: string) => [
  {
    event: 'message_delta',
    data: { type: 'message_delta', delta: { stop_reason: reason }, usage: { output_tokens: 12 } },
  },
  { event: 'message_stop', data: { type: 'message_stop' } },
]
export const block = (index: number, content_block: unknown, delta: unknown) => [
  { event: 'content_block_start', data: { type: 'content_block_start', index, content_block } },
  { event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } },
  { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
]

export const anthropicFraming: Framing = {
  read(body) {
    const request = body as Body
    const system =
      typeof request.system === 'string' ? request.system : request.system?.map((b) => b.text ?? '').join('')
    return {
      ...(system ? { system } : {}),
      chars:
        JSON.stringify(request.system ?? '').length +
        JSON.stringify(request.messages).length +
        JSON.stringify(request.tools ?? []).length,
      turns: request.messages.map((m) =>
        turn(m, ids(m.content, 'tool_use', 'id'), ids(m.content, 'tool_result', 'tool_use_id')),
      ),
    }
  },
  answer: (prompt, text) => ({
    body: sse([
      start(prompt),
      ...block(0, { type: 'text', text: '' }, { type: 'text_delta', text }),
      ...end('end_turn'),
    ]),
    chunkSize: 4096,
  }),
  call: (prompt, n) => ({
    body: sse([
      start(prompt),
      ...block(
        0,
        { type: 'tool_use', id: `toolu_${n}`, name: 'read_page', input: {} },
        { type: 'input_json_delta', partial_json: `{"n":${n}}` },
      ),
      ...end('tool_use'),
    ]),
    chunkSize: 4096,
  }),
  overflow: (limit, tokens) => ({
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'error',
      error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${limit} maximum` },
    }),
  }),
}

export type WindowedServer = WireServer & WindowLog

export async function startWindowedAnthropic(options: WindowOptions): Promise<WindowedServer> {
  const server = Object.assign(await startWireServer(), emptyLog())
  server.fallback = windowedModel(anthropicFraming, options, server)
  return server
}

export const windowedAnthropic = (server: WireServer, cacheControl = false) =>
  anthropic({ baseURL: server.url, apiKey: 'sk-ant-window-test', maxRetries: 0, cacheControl })

/** Where a request's cache_control marks sit: 'system', or the index of each marked message. */
export function cacheMarks(body: unknown): (number | 'system')[] {
  const request = body as Body
  const marks: (number | 'system')[] = []
  if (blocks(request.system ?? '').some((b) => b.cache_control)) marks.push('system')
  request.messages.forEach((m, i) => {
    if (blocks(m.content).some((b) => b.cache_control)) marks.push(i)
  })
  return marks
}
