// Renders the event stream as an indented tree: one level of indentation per nesting depth.
import type { AgentEvent } from '@nestor/core'

const clip = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

export function formatEvent(event: AgentEvent): string | undefined {
  const pad = '  '.repeat(event.depth)
  switch (event.type) {
    case 'agent_start':
      return `${pad}▶ exec ${event.execId} (depth ${event.depth}) tools: ${event.toolNames.join(', ') || 'none'}`
    case 'tool_start':
      return `${pad}→ ${event.toolName}(${clip(JSON.stringify(event.args))})`
    case 'tool_end':
      return `${pad}← ${event.toolName}${event.isError ? ' ERROR' : ''}: ${clip(event.result.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join(''))}`
    case 'message_end':
      if (event.message.role !== 'assistant') return undefined
      return event.message.content.some((c) => c.type === 'text')
        ? `${pad}“${clip(event.message.content.map((c) => (c.type === 'text' ? c.text : '')).join(''))}”`
        : undefined
    case 'agent_end':
      return `${pad}■ ${event.result.status}${event.result.error ? ` (${event.result.error.code})` : ''} after ${event.result.iterationsUsed} model calls`
    default:
      return undefined
  }
}
