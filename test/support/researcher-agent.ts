import { Agent, tool } from '@nestor/agents'
import { z } from 'zod'

/** An agent with one tool that reports an update: for nested execs that stream progress. */
export class Researcher extends Agent {
  instructions = 'You research.'

  @tool({ description: 'Search the notes', parameters: z.object({ q: z.string() }) })
  search({ q }: { q: string }, ctx: { update(p: unknown): void }) {
    ctx.update(`searching ${q}`)
    return `found ${q}`
  }
}
