import { Runtime, defineTool, type ToolResultMessage } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { historyProblems, textOf } from '../support/run.js'
import { sentMessages, text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

const circular = () => {
  const node: Record<string, unknown> = { name: 'loop' }
  node.self = node
  return node
}
const throwingGetter = () => ({
  get broken(): string {
    throw new Error('getter exploded')
  },
})
const errorWithThrowingMessage = () => {
  const error = new Error('placeholder')
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('message getter exploded')
    },
  })
  return error
}

// Each body runs to its end, then hands Nestor something no JSON can hold.
const bodies: [string, () => unknown][] = [
  ['returns a circular object', circular],
  ['returns a BigInt', () => 10n ** 30n],
  ['returns an object with a throwing getter', throwingGetter],
  [
    'returns an envelope whose details are circular',
    () => ({ content: [{ type: 'text', text: 'fine' }], details: circular() }),
  ],
  ['returns an object holding a BigInt deep inside', () => ({ rows: [{ id: 1n }] })],
  [
    'throws an Error whose message getter throws',
    () => {
      throw errorWithThrowingMessage()
    },
  ],
]

describe('a tool output JSON cannot hold is that call’s error result', () => {
  const wire = useOpenAIWire()

  it.each(bodies)(
    'a tool that %s gets an error result, a tool_error receipt, and the loop goes on',
    async (_label, produce) => {
      let ran = 0
      const odd = defineTool({
        name: 'odd',
        description: 'returns something odd',
        parameters: z.object({}),
        execute: () => {
          ran++
          return produce()
        },
      })
      wire.server.enqueue({ body: toolCalls({ id: 'call_odd', name: 'odd' }) }, { body: text('Recovered.') })
      const result = await new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' }).exec('go', { tools: [odd] })

      expect(ran).toBe(1)
      expect(result.status).toBe('completed')
      expect(result.text).toBe('Recovered.')
      expect(result.receipts).toHaveLength(1)
      expect(result.receipts[0]).toMatchObject({ toolCallId: 'call_odd', status: 'tool_error' })
      expect(result.receipts[0]?.attempts).toBeGreaterThanOrEqual(1)
      const answer = result.history.find((m): m is ToolResultMessage => m.role === 'toolResult')
      expect(answer?.isError).toBe(true)
      expect(historyProblems(result.history)).toEqual([])
      // The model saw the error result and answered after it.
      const second = sentMessages(wire.server, 1)
      expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_odd' })
      expect(String(second.at(-1)?.content)).toContain(textOf(answer!))
    },
  )
})
