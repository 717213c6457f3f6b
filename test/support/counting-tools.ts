import { z } from 'zod'
import { defineTool, type ToolResultMessage } from '@nestor/core'

/** Tools `a` and `b` that record in `ran` each time their body runs, and answer `<name> result`. */
export const countingTools = () => {
  const ran: string[] = []
  const make = (name: string) =>
    defineTool({
      name,
      description: name,
      parameters: z.object({}).passthrough(),
      execute: () => {
        ran.push(name)
        return `${name} result`
      },
    })
  return { ran, a: make('a'), b: make('b') }
}

/** The tool results of a history, in order. */
export const toolResults = (history: { role: string }[]) =>
  history.filter((m): m is ToolResultMessage => m.role === 'toolResult')
