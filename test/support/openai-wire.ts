import type { AssistantMessage } from '@nestor/core'
import type { ModelEvent, ModelRequest, ToolSpec } from '@nestor/core/integration-kit'
import { startWireServer, type WireServer } from './wire-server.js'
import { serverPerTest } from './server-per-test.js'

export type Collected = { events: ModelEvent[]; final: AssistantMessage; last: ModelEvent }

/** Drains a provider stream; the last event is always `done` or `error`. */
export async function collect(stream: AsyncIterable<ModelEvent>): Promise<Collected> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  const last = events.at(-1)
  if (!last || (last.type !== 'done' && last.type !== 'error'))
    throw new Error(`stream did not end with done/error: ${last?.type}`)
  return { events, final: last.message, last }
}

export const weatherTool: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  },
}
export const timeTool: ToolSpec = {
  name: 'get_time',
  description: 'Current time in a zone',
  parameters: {
    type: 'object',
    properties: { zone: { type: 'string' }, h24: { type: 'boolean' } },
    required: ['zone'],
  },
}

export const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools: [weatherTool],
  ...overrides,
})

/** A wire server per test, closed afterwards. */
export function useWire(): { readonly server: WireServer; readonly baseURL: string } {
  const current = serverPerTest(startWireServer)
  return {
    get server() {
      return current()
    },
    get baseURL() {
      return `${this.server.url}/v1`
    },
  }
}

export const body = (server: WireServer, index = 0): Record<string, unknown> =>
  server.requests[index]?.json as Record<string, unknown>
