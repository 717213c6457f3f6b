import type { Message } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted, type ScriptedProvider, type ScriptedTurn } from '@nestor/providers'
import { ACCOUNTANT_INSTRUCTIONS, RESEARCHER_INSTRUCTIONS } from './trip-agents.js'

const results = (messages: Message[]) => messages.flatMap((m) => (m.role === 'toolResult' ? [m] : []))
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  type: 'toolCall' as const,
  id,
  name,
  arguments: args,
})
const text = (t: string) => ({ type: 'text' as const, text: t })

/**
 * The model behind the offline demo: it plays the planner, the researcher and the accountant
 * (told apart by their system prompts) and moves on according to the tool results it has seen.
 * The committed cassette was recorded from it; fixed call ids keep re-recordings identical.
 */
export function demoModel(): ScriptedProvider {
  return scripted((request: ModelRequest): ScriptedTurn => {
    const done = results(request.messages)
    const has = (name: string) => done.some((r) => r.toolName === name)
    if (request.system === RESEARCHER_INSTRUCTIONS) {
      if (!has('search_notes'))
        return { content: [text('Searching the notes.'), call('call_search', 'search_notes', { query: 'lisbon' })] }
      if (!has('read_note')) {
        return {
          content: [
            call('call_read_weather', 'read_note', { id: 'lisbon-weather' }),
            call('call_read_costs', 'read_note', { id: 'lisbon-costs' }),
          ],
        }
      }
      return 'May in Lisbon: sunny, 17–24 °C, ~5 rainy days, windy evenings. Costs for two: guesthouse €130/night, food ~€80/day, transport pass €7.20 pp/day, museum pass €35 pp.'
    }
    if (request.system === ACCOUNTANT_INSTRUCTIONS) {
      if (!has('add_costs')) {
        const items = [
          { label: 'guesthouse, 3 nights', eur: 390 },
          { label: 'food, 3 days', eur: 240 },
          { label: 'transport passes, 2 × 3 days', eur: 43.2 },
          { label: 'museum passes, 2', eur: 70 },
        ]
        return { content: [call('call_add', 'add_costs', { items })] }
      }
      return 'Total €743.20 — €156.80 under the €900 budget.'
    }
    if (!has('research')) {
      return {
        content: [
          text("I'll get the facts first."),
          call('call_research', 'research', {
            input: 'Lisbon in May for two: weather, and costs of lodging, food, transport and museums',
          }),
        ],
      }
    }
    if (!has('budget')) {
      return {
        content: [
          text('Now the arithmetic.'),
          call('call_budget', 'budget', {
            input:
              'Budget €900. Guesthouse 3 nights at €130, food 3 days at €80, transport pass €7.20 × 2 people × 3 days, museum pass €35 × 2.',
          }),
        ],
      }
    }
    const save = done.find((r) => r.toolName === 'save_brief')
    if (!save) {
      const body =
        'Lisbon, 3 days in May, 2 people. Weather: sunny 17–24 °C, bring a light jacket. Budget: €743.20 of €900 (guesthouse €390, food €240, transport €43.20, museums €70).'
      return { content: [call('call_save', 'save_brief', { title: 'Lisbon in May', body })] }
    }
    if (save.isError)
      return 'The brief was not saved (not approved). The plan: 3 days in Lisbon for €743.20, €156.80 under budget.'
    return 'Saved the brief "Lisbon in May": 3 days for two at €743.20, €156.80 under the €900 budget. Expect sun (17–24 °C) and pack a light jacket for windy evenings.'
  })
}
