import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { AssistantMessage, Message } from '@nestor/core'
import type { ModelEvent, ModelRequest, ToolSpec } from '@nestor/core/integration-kit'

/** Our own committed Gemini SSE scenarios (test/providers/wire/gemini). */
export const scenario = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../providers/wire/gemini/${name}`, import.meta.url)), 'utf8')

/** Gemini's framing: one `data: <json>` line per event, CRLF blank line after it. */
export const geminiSse = (chunks: unknown[]): string => chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')

export const STREAM_PATH = (model: string) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`

export { collectModelEvents as collect } from './model-events.js'

/** The final message of a stream: the one `done` or `error` event, which must be last. */
export function final(events: ModelEvent[]): Extract<ModelEvent, { type: 'done' | 'error' }> {
  const terminal = events.filter((e) => e.type === 'done' || e.type === 'error')
  if (terminal.length !== 1) throw new Error(`expected exactly one terminal event, got ${terminal.length}`)
  const last = events.at(-1)!
  if (last.type !== 'done' && last.type !== 'error') throw new Error(`last event is ${last.type}`)
  return last
}

export const weatherTool: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
    additionalProperties: false,
  },
}

export const timeTool: ToolSpec = {
  name: 'get_time',
  description: 'Current time in a zone',
  parameters: {
    type: 'object',
    properties: { zone: { type: 'string' } },
    required: ['zone'],
    additionalProperties: false,
  },
}

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gemini-2.5-flash',
    messages: [{ role: 'user', content: 'Hello' }],
    tools: [],
    maxRetries: 0,
    ...overrides,
  }
}

export const user = (text: string): Message => ({ role: 'user', content: text })

export const assistantText = (events: ModelEvent[]): string =>
  (final(events).message as AssistantMessage).content
    .filter((c) => c.type === 'text')
    .map((c) => (c.type === 'text' ? c.text : ''))
    .join('')

/** The JSON body of a captured request, typed loosely for field assertions. */
export type Body = {
  contents: { role: string; parts: Record<string, unknown>[] }[]
  systemInstruction?: { role?: string; parts: { text: string }[] }
  tools?: { functionDeclarations: { name: string; description?: string; parameters?: Record<string, unknown> }[] }[]
  toolConfig?: { functionCallingConfig: { mode: string; allowedFunctionNames?: string[] } }
  generationConfig?: Record<string, unknown>
}

/** A Google API error envelope, as the v1beta endpoint sends it. */
export function googleError(
  code: number,
  status: string,
  message: string,
  details?: unknown[],
): { status: number; headers: Record<string, string>; body: string } {
  return {
    status: code,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({ error: { code, message, status, ...(details ? { details } : {}) } }),
  }
}

export const retryInfo = (retryDelay: string) => ({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay })
