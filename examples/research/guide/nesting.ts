// docs/agents.md § Nesting: a @tool method calls this.exec(), a child exec one level deeper.
// Run: npx tsc -b && node examples/dist/research/guide/nesting.js
import { Agent, tool } from '@nestor/agents'
import { Runtime, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { isMain } from './run-as-script.js'

class Editor extends Agent {
  instructions = 'You edit drafts.'

  @tool({ description: 'Fix the spelling of a text', parameters: z.object({ text: z.string() }) })
  spell({ text }: { text: string }) {
    return text.replace('teh', 'the')
  }

  @tool({ description: 'Edit a draft', parameters: z.object({ draft: z.string() }) })
  async edit({ draft }: { draft: string }) {
    // Runs on the current exec's runtime, with this.instructions as system and only spell().
    const result = await this.exec(`Edit: ${draft}`, { tools: [this.spell] })
    return result.text
  }
}

export async function main(log: (line: string) => void = console.log): Promise<AgentEvent[]> {
  const call = (name: string, args: Record<string, unknown>) => ({
    content: [{ type: 'toolCall' as const, name, arguments: args }],
  })
  const provider = scripted((request) => {
    const last = request.messages.at(-1)
    const answer =
      last?.role === 'toolResult' ? last.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : undefined
    if (request.system === 'You edit drafts.') return answer === undefined ? call('spell', { text: 'teh end' }) : answer
    return answer === undefined ? call('edit', { draft: 'teh end' }) : `Edited: ${answer}`
  })
  const run = new Runtime({ provider, model: 'demo' }).exec('Edit my draft', { tools: [new Editor()] })
  const events: AgentEvent[] = []
  for await (const event of run) {
    events.push(event)
    if (event.type === 'tool_end') log(`${'  '.repeat(event.depth)}${event.toolName} (depth ${event.depth})`)
  }
  log((await run).text)
  return events
}

if (isMain(import.meta.url)) await main()
