import { Agent, tool } from '@nestor/agents'
import { defineTool, type Tool } from '@nestor/core'
import { z } from 'zod'

// In-memory "knowledge": the demo must run offline and give the same answers every time.
const NOTES: Record<string, { title: string; text: string }> = {
  'lisbon-weather': {
    title: 'Lisbon weather in May',
    text: 'Sunny, 17–24 °C, rain on about 5 days. Evenings by the river get windy: pack a light jacket.',
  },
  'lisbon-costs': {
    title: 'Lisbon costs (2 people)',
    text: 'Guesthouse in Alfama €130/night. Food about €80/day for two. Metro/tram 24h pass €7.20 per person. Museum pass €35 per person.',
  },
  'porto-weather': { title: 'Porto weather in May', text: 'Milder than Lisbon, 14–20 °C, more rain.' },
}

export const RESEARCHER_INSTRUCTIONS =
  'You are the researcher. Search the travel notes, read the relevant ones, then reply with a short factual summary (numbers included). Do not invent facts.'
export const ACCOUNTANT_INSTRUCTIONS =
  'You are the accountant. Use add_costs to total the items you are given, then reply with the total and how it compares to the budget.'
export const PLANNER_SYSTEM =
  "You are Nestor's trip planner. Delegate fact-finding to the research tool and arithmetic to the budget tool, never guess numbers. Save the final brief with save_brief, then answer in two or three sentences."
export const DEMO_PROMPT =
  'Plan 3 days in Lisbon in May for two people with a €900 budget. Check the weather and costs, work out the total, and save a short brief.'

/** Finds facts in the notes: a nested agent with two tools. */
export class Researcher extends Agent {
  instructions = RESEARCHER_INSTRUCTIONS

  @tool({
    description: 'Search the travel notes; returns matching note ids and titles',
    parameters: z.object({ query: z.string().min(1) }),
  })
  async search_notes({ query }: { query: string }) {
    const words = query.toLowerCase().split(/\W+/).filter(Boolean)
    const hits = Object.entries(NOTES).filter(([id, note]) =>
      words.some((w) => id.includes(w) || note.title.toLowerCase().includes(w)),
    )
    return hits.length ? hits.map(([id, note]) => `${id}: ${note.title}`).join('\n') : 'no notes match'
  }

  @tool({ description: 'Read one travel note by id', parameters: z.object({ id: z.string() }) })
  async read_note({ id }: { id: string }) {
    const note = NOTES[id]
    if (!note) throw new Error(`no note ${id}; search first`)
    return `${note.title}\n${note.text}`
  }
}

/** Does the arithmetic: a nested agent with one tool. */
export class Accountant extends Agent {
  instructions = ACCOUNTANT_INSTRUCTIONS

  @tool({
    description: 'Add up cost items in euros; returns the total',
    parameters: z.object({ items: z.array(z.object({ label: z.string(), eur: z.number() })).min(1) }),
  })
  async add_costs({ items }: { items: { label: string; eur: number }[] }) {
    const total = items.reduce((sum, item) => sum + item.eur, 0)
    return {
      content: [{ type: 'text' as const, text: `total €${total.toFixed(2)} (${items.length} items)` }],
      details: { total },
    }
  }
}

/** Saving needs a human's yes: the runtime's approve handler decides. Briefs stay in `store`. */
export function saveBriefTool(store: { title: string; body: string }[]): Tool {
  return defineTool({
    name: 'save_brief',
    description: 'Save the trip brief for the travellers (needs approval)',
    parameters: z.object({ title: z.string().min(1), body: z.string().min(1) }),
    needsApproval: true,
    execute: ({ title, body }) => {
      store.push({ title, body })
      return `saved brief "${title}" (${body.length} characters)`
    },
  }) as unknown as Tool
}

/** The planner's tools: two agents as tools (nested execs) and the approval-gated save. */
export function plannerTools(
  store: { title: string; body: string }[] = [],
  researcher: Researcher = new Researcher(),
): Tool[] {
  return [
    researcher.asTool({
      name: 'research',
      description: 'Ask the researcher a question about the destination',
      maxIterations: 6,
    }),
    new Accountant().asTool({
      name: 'budget',
      description: 'Ask the accountant to total cost items against a budget',
      maxIterations: 4,
    }),
    saveBriefTool(store),
  ]
}
