import type { AgentEvent, ExecResult, ExecRun, Message, ToolCall } from '@nestor/core'

/** Drains a run's event stream and its result. */
export async function collect(run: ExecRun): Promise<{ events: AgentEvent[]; result: ExecResult }> {
  const events: AgentEvent[] = []
  for await (const event of run) events.push(event)
  return { events, result: await run }
}

/**
 * The history invariant of docs/design.md: each tool call is followed by exactly one result with its
 * id before the next assistant message. Returns the problems found (empty when it holds).
 */
export function historyProblems(history: Message[]): string[] {
  const problems: string[] = []
  let open: Map<string, number> | undefined
  const close = () => {
    if (open) for (const [id, n] of open) if (n !== 1) problems.push(`call ${id} has ${n} results`)
  }
  for (const message of history) {
    if (message.role === 'assistant') {
      close()
      open = new Map()
      for (const block of message.content) {
        if (block.type !== 'toolCall') continue
        if (!block.id) problems.push('a tool call has an empty id')
        if (open.has(block.id)) problems.push(`duplicate id ${block.id}`)
        open.set(block.id, 0)
      }
    } else if (message.role === 'toolResult') {
      if (!open || !open.has(message.toolCallId)) problems.push(`result ${message.toolCallId} answers no open call`)
      else open.set(message.toolCallId, (open.get(message.toolCallId) ?? 0) + 1)
    }
  }
  close()
  return problems
}

export const call = (name: string, args: Record<string, unknown>, id?: string): ToolCall =>
  ({ type: 'toolCall', id: id ?? '', name, arguments: args }) as ToolCall

/** A turn with tool calls for the scripted provider. */
export const calls = (...list: { name: string; args?: Record<string, unknown>; id?: string }[]) => ({
  content: list.map((c) => ({
    type: 'toolCall' as const,
    name: c.name,
    arguments: c.args ?? {},
    ...(c.id !== undefined && { id: c.id }),
  })),
})

export const textOf = (m: Message): string =>
  typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c ? c.text : '')).join('')
