import type { AgentEvent, ExecRun, ExecResult, Message } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import type { ScriptedTurn } from '@nestor/providers'

/** Drains a run: every event in its stream (children included) and the result. */
export async function collect(run: ExecRun): Promise<{ events: AgentEvent[]; result: ExecResult }> {
  const events: AgentEvent[] = []
  for await (const event of run) events.push(event)
  return { events, result: await run }
}

export const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  content: [{ type: 'toolCall', name, arguments: args }],
  stopReason: 'toolUse',
})

/** The last message the model was sent, if it is a tool result (the loop's answer to a call). */
export function lastToolResult(request: ModelRequest): string | undefined {
  const last: Message | undefined = request.messages.at(-1)
  if (last?.role !== 'toolResult') return undefined
  return last.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
}

export function firstUserText(request: ModelRequest): string {
  const first = request.messages.find((m) => m.role === 'user')
  return typeof first?.content === 'string' ? first.content : ''
}
