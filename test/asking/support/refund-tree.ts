import { defineTool, exec, type ToolContext } from '@nestor/core'
import { z } from 'zod'
import type { PaymentsApi } from '../../support/payments-api.js'
import { text, toolCalls } from '../../support/openai-loop-wire.js'
import type { CapturedRequest, WireServer } from '../../support/wire-server.js'

// A tree whose leaf asks: the root calls `desk`, whose body opens a child exec that calls `refund`.
// `refund` charges a deduping payments API with its idempotency key, then asks a person to confirm.
// The model is a real OpenAI SDK on a local wire server, scripted by who asks and what it has seen.

type ChatMessage = { role: string; content: unknown }

/** Who is asking (the first user message) and the tool results the request carries. */
function seenBy(request: CapturedRequest): { who: string; results: string[] } {
  const messages = (request.json as { messages: ChatMessage[] }).messages
  const first = messages.find((m) => m.role === 'user')
  const results = messages.filter((m) => m.role === 'tool').map((m) => String(m.content))
  return { who: typeof first?.content === 'string' ? first.content : '', results }
}

/** The refund question's answer schema. */
export const confirmation = z.object({ confirm: z.boolean(), note: z.string().optional() })

export function refundTree(api: PaymentsApi, ask: (ctx: ToolContext) => Promise<z.infer<typeof confirmation>>) {
  const runs = { refund: 0, desk: 0 }
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds an amount',
    parameters: z.object({ amount: z.number() }),
    execute: async ({ amount }, ctx) => {
      runs.refund++
      const response = await fetch(`${api.url}/v1/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': ctx.idempotencyKey },
        body: JSON.stringify({ amount }),
      })
      const charge = (await response.json()) as { id: string }
      const answer = await ask(ctx)
      return answer.confirm ? `refund ${charge.id} sent${answer.note ? ` (${answer.note})` : ''}` : 'refund cancelled'
    },
  })
  const desk = defineTool({
    name: 'desk',
    description: 'Hands the case to the refund desk',
    parameters: z.object({}),
    execute: async () => {
      runs.desk++
      return (await exec('desk', { tools: [refund] })).text
    },
  })
  return { runs, tools: [desk] }
}

/** Scripts the wire: the root calls desk, the desk calls refund(120), each then answers with what it saw. */
export function scriptRefunds(server: WireServer): void {
  server.fallback = (request) => {
    const { who, results } = seenBy(request)
    if (who === 'desk')
      return {
        body: results.length
          ? text(`desk: ${results.join()}`)
          : toolCalls({ id: 'call_refund', name: 'refund', args: { amount: 120 } }),
      }
    return { body: results.length ? text(`root: ${results.join()}`) : toolCalls({ id: 'call_desk', name: 'desk' }) }
  }
}
