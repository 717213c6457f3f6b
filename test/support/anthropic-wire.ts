import { readFileSync } from 'node:fs'
import type { AssistantMessage } from '@nestor/core'
import type { ModelEvent, ModelRequest, ToolSpec } from '@nestor/core/integration-kit'

/** A committed scenario from test/providers/wire/anthropic/. */
export const scenario = (name: string): string =>
  readFileSync(new URL(`../providers/wire/anthropic/${name}`, import.meta.url), 'utf8')

/** Drains a provider stream; the last event is always the terminal one. */
export async function collect(
  stream: AsyncIterable<ModelEvent>,
): Promise<{ events: ModelEvent[]; final: Extract<ModelEvent, { type: 'done' | 'error' }> }> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  const final = events.at(-1)
  if (!final || (final.type !== 'done' && final.type !== 'error'))
    throw new Error(`stream did not end with done/error: ${JSON.stringify(events.at(-1))}`)
  return { events, final }
}

export const finalMessage = (final: { message: AssistantMessage }): AssistantMessage => final.message

export const weatherTool: ToolSpec = {
  name: 'get_weather',
  description: 'Forecast for a place',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string' }, days: { type: 'integer' } },
    required: ['location'],
  },
}

export const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-sonnet-4-6',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  ...over,
})

/** A JSON request body captured by the wire server, typed loosely for assertions. */
export type Body = {
  model: string
  max_tokens: number
  system?: string
  stream: boolean
  messages: { role: string; content: { type: string; [k: string]: unknown }[] }[]
  tools?: { name: string; description: string; input_schema: Record<string, unknown> }[]
  tool_choice?: Record<string, unknown>
  thinking?: Record<string, unknown>
  [key: string]: unknown
}
