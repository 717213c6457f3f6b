// Handoffs between agents on two real SDKs: OpenAI Chat Completions and Anthropic Messages, each
// against its own local wire server.
import { anthropic } from '@nestor/providers'
import { block, end, start } from './windowed-anthropic.js'
import { sse, type WireServer } from './wire-server.js'

/** An Anthropic text answer. */
export const anthropicText = (text: string): string =>
  sse([start(30), ...block(0, { type: 'text', text: '' }, { type: 'text_delta', text }), ...end('end_turn')])

/** An Anthropic answer with one tool call. */
export const anthropicCall = (id: string, name: string, input: Record<string, unknown>): string =>
  sse([
    start(30),
    ...block(
      0,
      { type: 'tool_use', id, name, input: {} },
      { type: 'input_json_delta', partial_json: JSON.stringify(input) },
    ),
    ...end('tool_use'),
  ])

export const anthropicOn = (server: WireServer) =>
  anthropic({ baseURL: server.url, apiKey: 'sk-ant-handoff-test', maxRetries: 0 })

/** What the n-th Anthropic request carried: its system prompt, tool names and messages. */
export function anthropicRequest(server: WireServer, n: number) {
  const body = server.requests[n]?.json as {
    model: string
    system?: string | { text: string }[]
    tools?: { name: string }[]
    messages: { role: string; content: unknown }[]
  }
  const system = typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('')
  return { model: body.model, system, tools: (body.tools ?? []).map((t) => t.name), messages: body.messages }
}
