import type { AgentEvent, ExecResult, ToolResultMessage } from '@nestor/core'

/** The tool_end events of a stream, by tool name. */
export const toolEnds = (events: AgentEvent[], name?: string) =>
  events.filter(
    (e): e is Extract<AgentEvent, { type: 'tool_end' }> =>
      e.type === 'tool_end' && (name === undefined || e.toolName === name),
  )

/** The text of a tool result. */
export const resultText = (result: ToolResultMessage): string =>
  result.content.map((c) => ('text' in c ? c.text : '')).join('')

/** The tool results of an exec's history, in order. */
export const toolResults = (result: ExecResult): ToolResultMessage[] =>
  result.history.filter((m): m is ToolResultMessage => m.role === 'toolResult')

/** Resolves after `ms` with real timers. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
