// Our own wire answers for typed-output tests: one JSON answer streamed in small pieces, in the
// SSE shape of each API (Chat Completions, Responses, Messages, Gemini streamGenerateContent).
import { sse } from '../support/wire-server.js'

/** The answer text cut into pieces of `size` characters, as a model would stream it. */
export const piecesOf = (text: string, size = 7): string[] => {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

export function chatAnswer(text: string, options: { refusal?: boolean } = {}): string {
  const base = { id: 'chatcmpl-out', object: 'chat.completion.chunk', created: 1780000000, model: 'gpt-4.1-mini' }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
    usage: null,
  })
  const field = options.refusal ? 'refusal' : 'content'
  return sse([
    { data: chunk({ role: 'assistant', content: options.refusal ? null : '' }) },
    ...piecesOf(text).map((piece) => ({ data: chunk({ [field]: piece }) })),
    { data: chunk({}, 'stop') },
    { data: { ...base, choices: [], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } } },
    '[DONE]',
  ])
}

export function chatToolCall(id: string, name: string, args: Record<string, unknown>): string {
  const base = { id: 'chatcmpl-call', object: 'chat.completion.chunk', created: 1780000000, model: 'gpt-4.1-mini' }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
    usage: null,
  })
  return sse([
    {
      data: chunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }],
      }),
    },
    { data: chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(args) } }] }) },
    { data: chunk({}, 'tool_calls') },
    '[DONE]',
  ])
}

export function responsesAnswer(text: string): string {
  const message = {
    id: 'msg_out',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  }
  const response = (status: string, output: unknown[]) => ({
    id: 'resp_out',
    object: 'response',
    created_at: 1780000000,
    status,
    model: 'gpt-4.1-mini',
    output,
    usage:
      status === 'completed'
        ? {
            input_tokens: 20,
            output_tokens: 10,
            total_tokens: 30,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          }
        : null,
  })
  const events = [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
    ...piecesOf(text).map((delta) => ({
      type: 'response.output_text.delta',
      item_id: 'msg_out',
      output_index: 0,
      content_index: 0,
      delta,
    })),
    { type: 'response.output_item.done', output_index: 0, item: message },
    { type: 'response.completed', response: response('completed', [message]) },
  ]
  return sse(events.map((data, i) => ({ event: data.type, data: { ...data, sequence_number: i } })))
}

export function anthropicAnswer(text: string, stopReason = 'end_turn'): string {
  return sse([
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_out',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      },
    },
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    },
    ...piecesOf(text).map((piece) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: 10 },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ])
}

export function geminiAnswer(text: string): string {
  const pieces = piecesOf(text)
  return sse(
    pieces.map((piece, i) => ({
      data: {
        candidates: [
          {
            content: { parts: [{ text: piece }], role: 'model' },
            index: 0,
            ...(i === pieces.length - 1 && { finishReason: 'STOP' }),
          },
        ],
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: i + 1, totalTokenCount: 21 + i },
        modelVersion: 'gemini-2.5-flash',
      },
    })),
  )
}
