// Minimal Chat Completions SSE bodies for our own wire scenarios (replay and local-model tests).
import { sse } from '../support/wire-server.js'

const base = { id: 'chatcmpl-replay', object: 'chat.completion.chunk', created: 1780000000, model: 'local-model' }
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const usage = (prompt: number, completion: number) => ({
  ...base,
  choices: [],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
})

/** A text answer streamed in the given pieces. */
export const textAnswer = (pieces: string[], finish = 'stop'): string =>
  sse([
    { data: chunk({ role: 'assistant', content: '' }) },
    ...pieces.map((p) => ({ data: chunk({ content: p }) })),
    { data: chunk({}, finish) },
    { data: usage(50, 12) },
    '[DONE]',
  ])

/** One native tool call whose JSON arguments arrive in `fragments`. */
export const nativeToolCall = (id: string, name: string, fragments: string[]): string =>
  sse([
    { data: chunk({ role: 'assistant', content: null }) },
    { data: chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }) },
    ...fragments.map((f) => ({ data: chunk({ tool_calls: [{ index: 0, function: { arguments: f } }] }) })),
    { data: chunk({}, 'tool_calls') },
    { data: usage(60, 20) },
    '[DONE]',
  ])
