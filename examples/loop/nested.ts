// Nesting: a tool body calls exec() and opens a child loop. The child finds its parent through
// AsyncLocalStorage, inherits provider, model and tools (minus the running tool), and its events
// stream up through the parent's run.
// Run: npx tsc -b && node examples/dist/loop/nested.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, exec, type AgentEvent } from '@nestor/core'
import { type ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'

export async function main(log: (line: string) => void = console.log): Promise<AgentEvent[]> {
  const research = defineTool({
    name: 'research',
    description: 'Research a topic with a sub-agent',
    parameters: z.object({ topic: z.string() }),
    execute: async ({ topic }) => (await exec(`Find one fact about ${topic}`, { toolset: 'none' })).text,
  })
  const lastUserText = (r: ModelRequest) => {
    const m = [...r.messages].reverse().find((x) => x.role === 'user')
    return typeof m?.content === 'string' ? m.content : ''
  }
  // One script for both levels: the child is asked "Find one fact…", the parent anything else.
  const provider = scripted((request) => {
    if (lastUserText(request).startsWith('Find')) return 'Octopuses have three hearts.'
    const hasResult = request.messages.some((m) => m.role === 'toolResult')
    return hasResult
      ? 'Here is a fact: octopuses have three hearts.'
      : { content: [{ type: 'toolCall', name: 'research', arguments: { topic: 'octopuses' } }] }
  })
  const run = new Runtime({ provider, model: 'demo' }).exec('Tell me a fact', { tools: [research] })
  const events: AgentEvent[] = []
  for await (const event of run) {
    events.push(event)
    if (event.type === 'agent_start' || event.type === 'agent_end' || event.type === 'tool_start') {
      log(
        `${'  '.repeat(event.depth)}${event.type} exec=${event.execId}${event.parentExecId ? ` parent=${event.parentExecId}` : ''}`,
      )
    }
  }
  log((await run).text)
  return events
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
