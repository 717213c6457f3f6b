// Typed output: a planner agent asks a researcher agent (as a tool) for a typed city profile,
// then answers with a typed itinerary. A scripted model plays the turns, so it runs offline.
// Run: npx tsc -b && node examples/dist/output/typed-trip.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, type ExecResult } from '@nestor/core'
import { Agent } from '@nestor/agents'
import { scripted } from '@nestor/providers'

const CityProfile = z.object({ city: z.string(), bestMonths: z.array(z.string()), dailyBudgetEur: z.number() })
const Itinerary = z.object({
  city: z.string(),
  days: z.array(z.object({ day: z.number().int(), plan: z.string() })),
  totalEur: z.number(),
})
export type Itinerary = z.infer<typeof Itinerary>

class Researcher extends Agent {
  instructions = 'You profile cities for travellers.'
  override output = CityProfile
}

export async function main(log: (line: string) => void = console.log): Promise<ExecResult<Itinerary>> {
  const provider = scripted((request, index) => {
    // Turn 1: the planner asks the researcher. Turn 2: the researcher answers (typed).
    // Turn 3: the planner's first itinerary misses a field and is sent back. Turn 4: a valid one.
    if (index === 0) return { content: [{ type: 'toolCall', name: 'research', arguments: { input: 'Lisbon' } }] }
    if (index === 1) return JSON.stringify({ city: 'Lisbon', bestMonths: ['May', 'June'], dailyBudgetEur: 90 })
    if (index === 2) return JSON.stringify({ city: 'Lisbon', days: [{ day: 1, plan: 'Alfama and Fado' }] })
    return JSON.stringify({
      city: 'Lisbon',
      days: [
        { day: 1, plan: 'Alfama and Fado' },
        { day: 2, plan: 'Belém' },
      ],
      totalEur: 180,
    })
  })
  const runtime = new Runtime({ provider, model: 'demo' })
  const research = new Researcher().asTool({ name: 'research', description: 'Profile a city' })
  const run = runtime.exec('Plan two days in Lisbon', { tools: [research], output: Itinerary })
  for await (const event of run) {
    if (event.type === 'tool_end')
      log(`${event.toolName} → ${event.result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`)
    if (
      event.type === 'message_end' &&
      event.message.role === 'user' &&
      event.depth === 0 &&
      typeof event.message.content === 'string'
    ) {
      if (event.message.content.startsWith('Your answer')) log(`sent back: ${event.message.content.split('\n')[1]}`)
    }
  }
  const result = await run
  // `result.output` is typed from the schema: `days` is `{ day: number; plan: string }[]`.
  if (result.output) for (const { day, plan } of result.output.days) log(`day ${day}: ${plan}`)
  log(`${result.status}, total ${result.output?.totalEur ?? '?'} EUR`)
  return result
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
