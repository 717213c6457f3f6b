// The two agents of the research example. FactChecker is used as one tool (asTool);
// Researcher's `investigate` method opens its own nested exec with `this.exec`.
import { Agent, tool } from '@nestor/agents'
import { z } from 'zod'

/** A tiny offline knowledge base, so the example needs no network. */
export const SOURCES: Record<string, string> = {
  decorators: 'TC39 decorators reached stage 3 in 2022; TypeScript 5.0 implements them without experimentalDecorators.',
  asynclocalstorage: 'AsyncLocalStorage (node:async_hooks) carries a store across awaits; stable since Node 16.4.',
}

export class FactChecker extends Agent {
  instructions = 'You check one claim against the sources and answer "verified" or "unsupported" with the source.'

  @tool({ description: 'Find the source that mentions a keyword', parameters: z.object({ keyword: z.string() }) })
  lookup({ keyword }: { keyword: string }) {
    return SOURCES[keyword.toLowerCase()] ?? `no source mentions ${keyword}`
  }
}

export class Researcher extends Agent {
  instructions = 'You research a topic: search your notes, have the key claim fact-checked, then report.'
  // Each Researcher keeps its own notes and its own checker: method `this` is the instance.
  readonly notes: Record<string, string>
  readonly checker = new FactChecker()

  constructor(notes: Record<string, string>) {
    super()
    this.notes = notes
  }

  @tool({
    description: 'Search my notes on a topic',
    parameters: z.object({ q: z.string().describe('a topic keyword') }),
  })
  search({ q }: { q: string }) {
    return this.notes[q.toLowerCase()] ?? `no notes on ${q}`
  }

  @tool({ description: 'Investigate a topic and report findings', parameters: z.object({ topic: z.string() }) })
  async investigate({ topic }: { topic: string }) {
    // A nested exec, one level deeper than the call that runs this method, with this agent's
    // instructions and exactly these two tools: a method reference and another agent as a tool.
    const result = await this.exec(`Investigate ${topic}`, {
      tools: [this.search, this.checker.asTool({ name: 'fact_check', description: 'Have a claim fact-checked' })],
    })
    if (result.status !== 'completed') throw new Error(`investigation ${result.status}: ${result.error?.message ?? ''}`)
    return result.text
  }
}
