// docs/agents.md § An agent as a tool: agent.asTool() wraps the whole agent in one tool.
// Run: npx tsc -b && node examples/dist/research/guide/as-tool.js
import { Agent, tool } from '@nestor/agents'
import { Runtime, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { isMain } from './run-as-script.js'

class Translator extends Agent {
  instructions = 'You translate to French using the dictionary.'

  @tool({ description: 'Look a word up', parameters: z.object({ word: z.string() }) })
  dictionary({ word }: { word: string }) {
    return ({ cat: 'chat', dog: 'chien' } as Record<string, string>)[word] ?? word
  }
}

export async function main(log: (line: string) => void = console.log): Promise<AgentEvent[]> {
  const translate = new Translator().asTool({ name: 'translate', description: 'Translate a word to French' })
  const provider = scripted((request) => {
    const last = request.messages.at(-1)
    const answer =
      last?.role === 'toolResult' ? last.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : undefined
    if (request.system?.startsWith('You translate')) {
      return answer === undefined
        ? { content: [{ type: 'toolCall', name: 'dictionary', arguments: { word: 'cat' } }] }
        : answer
    }
    return answer === undefined
      ? { content: [{ type: 'toolCall', name: 'translate', arguments: { input: 'cat' } }] }
      : `"cat" is "${answer}".`
  })
  const run = new Runtime({ provider, model: 'demo' }).exec('French for cat?', { tools: [translate] })
  const events: AgentEvent[] = []
  for await (const event of run) {
    events.push(event)
    if (event.type === 'agent_start')
      log(`${'  '.repeat(event.depth)}exec at depth ${event.depth}: ${event.toolNames.join(', ')}`)
  }
  log((await run).text)
  return events
}

if (isMain(import.meta.url)) await main()
