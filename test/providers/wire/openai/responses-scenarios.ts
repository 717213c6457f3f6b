// Our own Responses API SSE scenarios: `event:` + `data:` framing with sequence numbers, a
// reasoning item with encrypted content, a function call item (fc_… id, call_… call_id) whose
// arguments stream in fragments, then text in a message item, then response.completed with usage.
import { sse } from '../../../support/wire-server.js'

const response = (
  status: string,
  output: unknown[] = [],
  usage: unknown = null,
  extra: Record<string, unknown> = {},
) => ({
  id: 'resp_nestor_1',
  object: 'response',
  created_at: 1780000000,
  status,
  error: null,
  incomplete_details: null,
  model: 'gpt-5-mini-2025-08-07',
  output,
  parallel_tool_calls: true,
  tool_choice: 'auto',
  tools: [],
  usage,
  ...extra,
})

export const reasoningItem = {
  id: 'rs_nestor_1',
  type: 'reasoning',
  encrypted_content: 'gAAAAnestor-opaque-reasoning-blob==',
  summary: [{ type: 'summary_text', text: 'Need the weather first.' }],
}
export const functionCallItem = (args: string) => ({
  id: 'fc_nestor_1',
  type: 'function_call',
  status: 'completed',
  arguments: args,
  call_id: 'call_nestor_1',
  name: 'get_weather',
})
const usage = {
  input_tokens: 300,
  input_tokens_details: { cached_tokens: 100 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 30 },
  total_tokens: 350,
}

type Event = { type: string; [key: string]: unknown }
const frame = (events: Event[]): string =>
  sse(events.map((data, i) => ({ event: data.type, data: { ...data, sequence_number: i } })))

/** Reasoning (with a streamed summary), one function call, then a short text. */
export const reasoningCallAndText = (): string => {
  const args = '{"city":"Paris"}'
  const message = {
    id: 'msg_nestor_1',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
  }
  return frame([
    { type: 'response.created', response: response('in_progress') },
    { type: 'response.in_progress', response: response('in_progress') },
    { type: 'response.output_item.added', output_index: 0, item: { ...reasoningItem, summary: [] } },
    {
      type: 'response.reasoning_summary_part.added',
      item_id: 'rs_nestor_1',
      output_index: 0,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    },
    {
      type: 'response.reasoning_summary_text.delta',
      item_id: 'rs_nestor_1',
      output_index: 0,
      summary_index: 0,
      delta: 'Need the weather',
    },
    {
      type: 'response.reasoning_summary_text.delta',
      item_id: 'rs_nestor_1',
      output_index: 0,
      summary_index: 0,
      delta: ' first.',
    },
    { type: 'response.output_item.done', output_index: 0, item: reasoningItem },
    { type: 'response.output_item.added', output_index: 1, item: { ...functionCallItem(''), status: 'in_progress' } },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_nestor_1', output_index: 1, delta: '{"ci' },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_nestor_1', output_index: 1, delta: 'ty":"Pa' },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_nestor_1', output_index: 1, delta: 'ris"}' },
    { type: 'response.function_call_arguments.done', item_id: 'fc_nestor_1', output_index: 1, arguments: args },
    { type: 'response.output_item.done', output_index: 1, item: functionCallItem(args) },
    { type: 'response.output_item.added', output_index: 2, item: { ...message, status: 'in_progress', content: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_nestor_1', output_index: 2, content_index: 0, delta: 'Check' },
    { type: 'response.output_text.delta', item_id: 'msg_nestor_1', output_index: 2, content_index: 0, delta: 'ing.' },
    { type: 'response.output_item.done', output_index: 2, item: message },
    {
      type: 'response.completed',
      response: response('completed', [reasoningItem, functionCallItem(args), message], usage),
    },
  ])
}

/** Text only, the answer after a function_call_output. */
export const textAnswer = (text = 'It is sunny in Paris.'): string => {
  const message = {
    id: 'msg_nestor_2',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  }
  return frame([
    { type: 'response.created', response: response('in_progress') },
    { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
    ...text.split(/(?<= )/).map((delta) => ({
      type: 'response.output_text.delta',
      item_id: 'msg_nestor_2',
      output_index: 0,
      content_index: 0,
      delta,
    })),
    { type: 'response.output_item.done', output_index: 0, item: message },
    {
      type: 'response.completed',
      response: response('completed', [message], { ...usage, output_tokens: 7, total_tokens: 307 }),
    },
  ])
}

/** Cut off by max_output_tokens. */
export const incomplete = (): string =>
  frame([
    { type: 'response.created', response: response('in_progress') },
    { type: 'response.output_text.delta', item_id: 'msg_x', output_index: 0, content_index: 0, delta: 'Once upon' },
    {
      type: 'response.incomplete',
      response: response('incomplete', [], usage, { incomplete_details: { reason: 'max_output_tokens' } }),
    },
  ])

/** HTTP 200, then an error event with a nested error object, then response.failed. */
export const inStreamError = (): string =>
  frame([
    { type: 'response.created', response: response('in_progress') },
    {
      type: 'error',
      error: {
        type: 'insufficient_quota',
        code: 'insufficient_quota',
        message: 'You exceeded your current quota.',
        param: null,
      },
    },
    {
      type: 'response.failed',
      response: response('failed', [], null, {
        error: { code: 'insufficient_quota', message: 'You exceeded your current quota.' },
      }),
    },
  ])
