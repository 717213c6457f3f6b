// The tree both durability examples run: the root asks `book`, whose body opens a child exec that
// calls `charge` (a side effect: it counts). One scripted model answers both levels.
import { z } from 'zod'
import { defineTool, exec } from '@nestor/core'
import { type ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'

export function trip(options: { chargeNeedsApproval?: boolean } = {}) {
  const charged: number[] = []
  const modelCalls: string[] = []
  const charge = defineTool({
    name: 'charge',
    description: 'Charge the card',
    parameters: z.object({ amount: z.number() }),
    needsApproval: options.chargeNeedsApproval ?? false,
    execute: ({ amount }) => {
      charged.push(amount)
      return `charged ${amount} EUR`
    },
  })
  // Deterministic: it only opens a child. Side effects live in leaf tools like `charge`.
  const book = defineTool({
    name: 'book',
    description: 'Book a hotel with the booking agent',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => (await exec(`Book a hotel in ${city}`, { tools: [charge] })).text,
  })
  const provider = scripted((request: ModelRequest) => {
    const first = request.messages.find((m) => m.role === 'user')
    const asker = typeof first?.content === 'string' ? first.content : ''
    const answered = request.messages.filter((m) => m.role === 'toolResult').length
    modelCalls.push(`${asker} (${answered} results)`)
    if (asker.startsWith('Book'))
      return answered === 0
        ? { content: [{ type: 'toolCall', id: 'pay', name: 'charge', arguments: { amount: 120 } }] }
        : 'Booked the Alfama hotel.'
    return answered === 0
      ? { content: [{ type: 'toolCall', id: 'trip', name: 'book', arguments: { city: 'Lisbon' } }] }
      : 'Your Lisbon trip is booked.'
  })
  return { tools: [book], provider, charged, modelCalls }
}
