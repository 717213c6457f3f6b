import { Runtime, defineTool, type Message, type Provider } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

const lastUser = (messages: Message[]) => {
  const m = messages.find((x) => x.role === 'user')
  return m && typeof m.content === 'string' ? m.content : ''
}

/** A model that looks the city of the prompt up, then answers with what the tool said. */
export function cityModel(): Provider & { requests: unknown[] } {
  return scripted((request) => {
    const result = request.messages.find((m) => m.role === 'toolResult')
    const city = lastUser(request.messages).replace(/^Plan /, '')
    if (!result) return { content: [{ type: 'toolCall', id: `call_${city}`, name: 'lookup', arguments: { city } }] }
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
    return `Trip to ${city}: ${text}`
  })
}

/** The agent under evaluation; `counts.lookup` says how often the tool body ran. */
export function cityAgent(provider: Provider = cityModel()) {
  const counts = { lookup: 0 }
  const lookup = defineTool({
    name: 'lookup',
    description: 'Facts about a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      counts.lookup++
      if (city === 'Atlantis') throw new Error('no such city')
      return `${city} is sunny`
    },
  })
  const runtime = new Runtime({ provider, model: 'scripted-city' })
  return { runtime, counts, tools: [lookup] }
}
