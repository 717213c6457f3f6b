import type { Message } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted, type ScriptedProvider, type ScriptedTurn } from '@nestor/providers'
import { ACCOUNTANT_INSTRUCTIONS, RESEARCHER_INSTRUCTIONS } from '../demo/trip-agents.js'

// The model the committed cassettes were recorded from: like the demo's, it plays the planner,
// the researcher and the accountant (told apart by their system prompts), but for any trip the
// prompt asks for. It does the arithmetic the way a model might: rooms for two, food per person.

const results = (messages: Message[]) => messages.flatMap((m) => (m.role === 'toolResult' ? [m] : []))
const textOf = (m: { content: { type: string; text?: string }[] }) => m.content.map((c) => c.text ?? '').join('')
const firstUser = (messages: Message[]) => {
  const m = messages.find((x) => x.role === 'user')
  return m && typeof m.content === 'string' ? m.content : ''
}
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  type: 'toolCall' as const,
  id,
  name,
  arguments: args,
})
const euros = (n: number) => `€${n.toFixed(2)}`

/** What the planner reads in a prompt like "Plan 3 days in Lisbon in May for two people with a €900 budget". */
export function parseTrip(prompt: string) {
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 }
  const num = (s: string | undefined) => (s === undefined ? NaN : (words[s.toLowerCase()] ?? Number(s)))
  const days = num(/(\w+) days?/i.exec(prompt)?.[1])
  const city = /in ([A-Z][a-z]+)/.exec(prompt)?.[1] ?? 'Lisbon'
  const month = /in ([A-Z][a-z]+) for/.exec(prompt)?.[1] ?? 'May'
  const people = num(/for (\w+) (?:people|person|adults)/i.exec(prompt)?.[1])
  const budget = Number(/€(\d+)/.exec(prompt)?.[1] ?? NaN)
  return { days, city, month, people, budget }
}

export function tripModel(): ScriptedProvider {
  return scripted((request: ModelRequest): ScriptedTurn => {
    const done = results(request.messages)
    const has = (name: string) => done.some((r) => r.toolName === name)
    const input = firstUser(request.messages)
    if (request.system === RESEARCHER_INSTRUCTIONS) {
      const city = /^(\w+)/.exec(input)?.[1]?.toLowerCase() ?? ''
      const search = done.find((r) => r.toolName === 'search_notes')
      if (!search) return { content: [call('call_search', 'search_notes', { query: city })] }
      const ids = textOf(search)
        .split('\n')
        .map((line) => line.split(':')[0]!)
        .filter((id) => id.startsWith(city))
      if (ids.length === 0) return `No notes about ${city}: I cannot give weather or costs.`
      if (!has('read_note')) return { content: ids.map((id, i) => call(`call_read_${i}`, 'read_note', { id })) }
      return done
        .filter((r) => r.toolName === 'read_note')
        .map((r) => textOf(r).split('\n')[1])
        .join(' ')
    }
    if (request.system === ACCOUNTANT_INSTRUCTIONS) {
      const items = [...input.matchAll(/^- (.+): €([\d.]+)$/gm)].map((m) => ({ label: m[1]!, eur: Number(m[2]) }))
      const budget = Number(/Budget €(\d+)/.exec(input)?.[1] ?? 0)
      const add = done.find((r) => r.toolName === 'add_costs')
      if (!add) return { content: [call('call_add', 'add_costs', { items })] }
      const total = Number(/total €([\d.]+)/.exec(textOf(add))?.[1] ?? 0)
      const diff = budget - total
      return `Total ${euros(total)} — ${euros(Math.abs(diff))} ${diff >= 0 ? 'under' : 'over'} the €${budget} budget.`
    }

    const trip = parseTrip(input)
    const research = done.find((r) => r.toolName === 'research')
    if (!research) {
      return {
        content: [
          call('call_research', 'research', {
            input: `${trip.city} in ${trip.month} for ${trip.people}: weather, and costs of lodging, food, transport and museums`,
          }),
        ],
      }
    }
    const facts = textOf(research)
    const known = facts.includes('/night')
    const budget = done.find((r) => r.toolName === 'budget')
    if (known && !budget) {
      const rooms = Math.ceil(trip.people / 2)
      const lines = [
        `- guesthouse, ${trip.days} nights × ${rooms} room(s): €${trip.days * 130 * rooms}`,
        `- food, ${trip.days} days: €${trip.days * 40 * trip.people}`,
        `- transport passes: €${(7.2 * trip.people * trip.days).toFixed(2)}`,
        `- museum passes: €${35 * trip.people}`,
      ]
      return { content: [call('call_budget', 'budget', { input: `Budget €${trip.budget}.\n${lines.join('\n')}` })] }
    }
    const verdict = budget ? textOf(budget) : 'Costs unknown: no notes about them, so no total.'
    const save = done.find((r) => r.toolName === 'save_brief')
    if (!save) {
      const body = `${trip.city}, ${trip.days} days in ${trip.month}, ${trip.people} people. ${facts} ${verdict}`
      return { content: [call('call_save', 'save_brief', { title: `${trip.city} in ${trip.month}`, body })] }
    }
    return `Saved the brief "${trip.city} in ${trip.month}". ${verdict}`
  })
}

/** The judge of the worked example, standing in for a real model: it grades by the rubric's two points. */
export function tripJudge(): ScriptedProvider {
  return scripted((request: ModelRequest): ScriptedTurn => {
    const prompt = firstUser(request.messages)
    const answer = prompt.split('Answer to grade:\n')[1] ?? ''
    const total = /€[\d.]+/.test(answer)
    const verdict = /under|over/.test(answer)
    const score = (Number(total) + Number(verdict)) / 2
    const reason =
      score === 1
        ? 'gives a total and says how it compares to the budget'
        : total
          ? 'a total, but no verdict on the budget'
          : 'no total'
    return JSON.stringify({ score, reason })
  })
}
