// A real OpenAI SDK talking Chat Completions SSE to a local server, for the loop's tests.
import { openai } from '@nestor/providers'
import { sse, startWireServer, type WireServer } from './wire-server.js'
import { serverPerTest } from './server-per-test.js'

const base = { id: 'chatcmpl-loop', object: 'chat.completion.chunk', created: 1780000000, model: 'gpt-4o-mini' }
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const usage = { ...base, choices: [], usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 } }

/** A text answer streamed in the given pieces. */
export const text = (...pieces: string[]): string =>
  sse([
    { data: chunk({ role: 'assistant', content: '' }) },
    ...pieces.map((p) => ({ data: chunk({ content: p }) })),
    { data: chunk({}, 'stop') },
    { data: usage },
    '[DONE]',
  ])

/** One assistant message with these tool calls (all in one message: parallel calls). */
export const toolCalls = (...list: { id: string; name: string; args?: Record<string, unknown> }[]): string =>
  sse([
    { data: chunk({ role: 'assistant', content: null }) },
    ...list.map((c, index) => ({
      data: chunk({
        tool_calls: [
          { index, id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } },
        ],
      }),
    })),
    { data: chunk({}, 'tool_calls') },
    { data: usage },
    '[DONE]',
  ])

/** A wire server per test and an openai() provider pointed at it. */
export function useOpenAIWire(): { readonly server: WireServer; provider(): ReturnType<typeof openai> } {
  const current = serverPerTest(startWireServer)
  return {
    get server() {
      return current()
    },
    provider() {
      return openai({ baseURL: `${current().url}/v1`, apiKey: 'sk-loop-test', maxRetries: 0 })
    },
  }
}

/** The `messages` of the n-th Chat Completions request the server received. */
export const sentMessages = (server: WireServer, n: number): { role: string; content: unknown }[] =>
  (server.requests[n]?.json as { messages: { role: string; content: unknown }[] }).messages

/** Resolves with `work`, or rejects after `ms`: a hang becomes a failing test, not a stuck run. */
export function within<T>(ms: number, work: PromiseLike<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const limit = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms)),
  )
  return Promise.race([Promise.resolve(work), limit]).finally(() => clearTimeout(timer))
}
