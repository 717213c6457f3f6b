import { defineTool, exec } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

/** The first user message of a request: which exec asks. */
export const asker = (r: ModelRequest): string => {
  const first = r.messages.find((m) => m.role === 'user')
  return typeof first?.content === 'string' ? first.content : ''
}
export const resultsIn = (r: ModelRequest): string[] =>
  r.messages.flatMap((m) =>
    m.role === 'toolResult' ? [m.content.map((c) => ('text' in c ? c.text : '')).join('')] : [],
  )

/**
 * A two-level tree: the root calls `outer`, whose body opens a child that calls the leaf `write`,
 * then both answer with what they saw. Counts model calls and body runs.
 */
export function twoLevels(childInput: () => string = () => 'inner') {
  const counts = { model: 0, outer: 0, write: 0 }
  const provider = scripted((r: ModelRequest) => {
    counts.model++
    const seen = resultsIn(r)
    if (asker(r) === 'go')
      return seen.length === 0
        ? { content: [{ type: 'toolCall', id: 'c1', name: 'outer', arguments: {} }] }
        : `root saw ${seen.join(', ')}`
    return seen.length === 0
      ? { content: [{ type: 'toolCall', id: 'w1', name: 'write', arguments: { text: 'x' } }] }
      : `child saw ${seen.join(', ')}`
  })
  const write = defineTool({
    name: 'write',
    description: 'Write',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      counts.write++
      return `wrote ${text}`
    },
  })
  const outer = defineTool({
    name: 'outer',
    description: 'Opens a child',
    parameters: z.object({}),
    execute: async () => {
      counts.outer++
      return (await exec(childInput(), { tools: [write] })).text
    },
  })
  return { counts, provider, tools: [outer] }
}
