import { openaiCompatible } from '@nestor/providers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { textAnswer } from '../replay/chat-sse.js'
import { startLocalServer } from './local-server.js'

// Through a real local server: the SSE stream is cut at the chosen points into text deltas.

const REPLY = 'Checking ``` code ``` first.\n```tool_call\n{"name":"echo","arguments":{"text":"a ``` b"}}\n```\nDone?'

describe('text protocol parsing does not depend on how the text is chunked', () => {
  it('any split of the reply gives the same text and the same call', async () => {
    const server = await startLocalServer(['completion'])
    try {
      const provider = openaiCompatible({ baseURL: `${server.url}/v1`, toolProtocol: 'text' })
      const tools = [
        { name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      ]
      const parse = async (pieces: string[]) => {
        server.chat(textAnswer(pieces))
        let final: unknown
        for await (const e of provider.stream({
          model: 'm',
          messages: [{ role: 'user', content: 'x' }],
          tools,
          maxRetries: 0,
        }))
          if (e.type === 'done')
            final = e.message.content.map((c) => (c.type === 'toolCall' ? { ...c, id: 'generated' } : c))
        return final
      }
      const whole = await parse([REPLY])
      expect(whole).toMatchObject([
        { type: 'text', text: 'Checking ``` code ``` first.' },
        { type: 'toolCall', name: 'echo', arguments: { text: 'a ``` b' } },
        { type: 'text', text: 'Done?' },
      ])
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: REPLY.length - 1 }), { maxLength: 12 }),
          async (cuts) => {
            const sorted = [0, ...cuts.sort((a, b) => a - b), REPLY.length]
            const pieces = sorted.slice(1).map((end, i) => REPLY.slice(sorted[i], end))
            expect(await parse(pieces)).toEqual(whole)
          },
        ),
        { numRuns: 40 },
      )
    } finally {
      await server.close()
    }
  })
})
