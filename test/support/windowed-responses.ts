// An OpenAI Responses server with a context window (the shared part is windowed-wire.ts): past its
// limit it answers HTTP 400 context_length_exceeded "Your input exceeds the context window of this
// model.", as the API does (no counts in it).
import { openai } from '@nestor/providers'
import { emptyLog, windowedModel, turn, type Framing, type WindowLog, type WindowOptions } from './windowed-wire.js'
import { sse, startWireServer, type WireServer } from './wire-server.js'

type Item = { type?: string; role?: string; call_id?: string; content?: unknown }
type Body = { instructions?: string; input: string | Item[]; tools?: unknown[] }

const response = (status: string, output: unknown[], prompt?: number) => ({
  id: 'resp_window',
  object: 'response',
  created_at: 1780000000,
  status,
  error: null,
  incomplete_details: null,
  model: 'gpt-5-mini',
  output,
  parallel_tool_calls: true,
  tool_choice: 'auto',
  tools: [],
  usage:
    prompt === undefined
      ? null
      : {
          input_tokens: prompt,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 12,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: prompt + 12,
        },
})
// `added` is the item before its deltas (no text, no arguments yet); `item` is it done.
const frame = (prompt: number, added: unknown, item: Record<string, unknown>, deltas: Record<string, unknown>[]) => ({
  body: sse(
    [
      { type: 'response.created', response: response('in_progress', []) },
      { type: 'response.output_item.added', output_index: 0, item: added },
      ...deltas,
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: response('completed', [item], prompt) },
    ].map((data, i) => ({ event: data.type as string, data: { ...data, sequence_number: i } })),
  ),
  chunkSize: 4096,
})

export const responsesFraming: Framing = {
  read(body) {
    const request = body as Body
    const items = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input
    return {
      ...(request.instructions ? { system: request.instructions } : {}),
      chars:
        (request.instructions ?? '').length +
        JSON.stringify(request.input).length +
        JSON.stringify(request.tools ?? []).length,
      turns: items.map((item) =>
        turn(
          item,
          item.type === 'function_call' ? [item.call_id ?? ''] : [],
          item.type === 'function_call_output' ? [item.call_id ?? ''] : [],
        ),
      ),
    }
  },
  answer: (prompt, text) => {
    const item = {
      id: 'msg_window',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    }
    return frame(prompt, { ...item, status: 'in_progress', content: [] }, item, [
      { type: 'response.output_text.delta', item_id: 'msg_window', output_index: 0, content_index: 0, delta: text },
    ])
  },
  call: (prompt, n) => {
    const args = `{"n":${n}}`
    const item = {
      id: `fc_${n}`,
      type: 'function_call',
      status: 'completed',
      arguments: args,
      call_id: `call_${n}`,
      name: 'read_page',
    }
    return frame(prompt, { ...item, status: 'in_progress', arguments: '' }, item, [
      { type: 'response.function_call_arguments.delta', item_id: `fc_${n}`, output_index: 0, delta: args },
      { type: 'response.function_call_arguments.done', item_id: `fc_${n}`, output_index: 0, arguments: args },
    ])
  },
  overflow: () => ({
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error: {
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        param: 'input',
        code: 'context_length_exceeded',
      },
    }),
  }),
}

export type WindowedServer = WireServer & WindowLog

export async function startWindowedResponses(options: WindowOptions): Promise<WindowedServer> {
  const server = Object.assign(await startWireServer(), emptyLog())
  server.fallback = windowedModel(responsesFraming, options, server)
  return server
}

export const windowedResponses = (server: WireServer) =>
  openai({ baseURL: `${server.url}/v1`, apiKey: 'sk-window-test', maxRetries: 0, api: 'responses' })
