// Our own Chat Completions SSE scenarios, shaped like the recorded streams (see the wire README):
// id/type/name only in the first fragment of an index, arguments split mid-token, `usage: null`
// on every chunk but the last, a usage chunk with `choices: []` before [DONE].
import { sse } from '../../../support/wire-server.js'

const base = {
  id: 'chatcmpl-nestor1',
  object: 'chat.completion.chunk',
  created: 1780000000,
  model: 'gpt-4o-mini-2024-07-18',
  system_fingerprint: 'fp_nestor',
}

type Delta = Record<string, unknown>
const chunk = (delta: Delta, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  usage: null,
})
const usage = (prompt: number, completion: number, cached = 0) => ({
  ...base,
  choices: [],
  usage: {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  },
})
const callStart = (index: number, id: string, name: string) => ({
  tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }],
})
const callArgs = (index: number, args: string) => ({ tool_calls: [{ index, function: { arguments: args } }] })

/** One call to get_weather, arguments `{"city":"Paris","unit":"c"}` in five fragments. */
export const singleToolCall = (): string =>
  sse([
    { data: chunk({ role: 'assistant', content: null }) },
    { data: chunk(callStart(0, 'call_weather_1', 'get_weather')) },
    { data: chunk(callArgs(0, '{"ci')) },
    { data: chunk(callArgs(0, 'ty":"Pa')) },
    { data: chunk(callArgs(0, 'ris","un')) },
    { data: chunk(callArgs(0, 'it":"c')) },
    { data: chunk(callArgs(0, '"}')) },
    { data: chunk({}, 'tool_calls') },
    { data: usage(80, 20, 64) },
    '[DONE]',
  ])

/** Two calls: index 0 streams fully, then index 1 opens; arguments split inside tokens. */
export const parallelToolCalls = (): string =>
  sse([
    { data: chunk({ role: 'assistant', content: null }) },
    { data: chunk(callStart(0, 'call_a', 'get_weather')) },
    { data: chunk(callArgs(0, '{"city": "Lon')) },
    { data: chunk(callArgs(0, 'don"}')) },
    { data: chunk(callStart(1, 'call_b', 'get_time')) },
    { data: chunk(callArgs(1, '{"zone": "Eu')) },
    { data: chunk(callArgs(1, 'rope/Lon')) },
    { data: chunk(callArgs(1, 'don", "h24": tr')) },
    { data: chunk(callArgs(1, 'ue}')) },
    { data: chunk({}, 'tool_calls') },
    { data: usage(120, 40) },
    '[DONE]',
  ])

/** Plain text in several deltas, including an empty first content delta. */
export const text = (words: string[] = ['The', ' weather', ' in Paris', ' is sunny', '.']): string =>
  sse([
    { data: chunk({ role: 'assistant', content: '', refusal: null }) },
    ...words.map((w) => ({ data: chunk({ content: w }) })),
    { data: chunk({}, 'stop') },
    { data: usage(200, 12) },
    '[DONE]',
  ])

/** Cut off by max tokens. */
export const finishLength = (): string =>
  sse([
    { data: chunk({ role: 'assistant', content: '' }) },
    { data: chunk({ content: 'Once' }) },
    { data: chunk({}, 'length') },
    { data: usage(9, 1) },
    '[DONE]',
  ])

/** A tool call cut off by max tokens in the middle of its arguments. */
export const toolCallCutByLength = (): string =>
  sse([
    { data: chunk(callStart(0, 'call_cut', 'get_weather')) },
    { data: chunk(callArgs(0, '{"city":"Par')) },
    { data: chunk({}, 'length') },
    '[DONE]',
  ])

/** A data line that is not JSON. */
export const garbage = (): string =>
  sse([{ data: chunk({ role: 'assistant', content: 'Hel' }) }]) + 'data: {not json at all\n\n'

/** An error object inside an HTTP 200 stream. */
export const inStreamError = (): string =>
  sse([
    {
      data: {
        error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null },
      },
    },
  ])

/** HTTP error body in OpenAI's envelope. */
export const errorBody = (message: string, type: string, code: string | null): string =>
  JSON.stringify({ error: { message, type, param: null, code } })
