import { liveTestsEnabled } from '@nestor/agents/conformance'
// Talks to the real OpenAI API. Runs only with NESTOR_LIVE_TESTS=1 and OPENAI_API_KEY set.
import type { Message } from '@nestor/core'
import { openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { collect, weatherTool } from '../../support/openai-wire.js'

const live = liveTestsEnabled() && !!process.env.OPENAI_API_KEY
const model = process.env.NESTOR_OPENAI_MODEL ?? 'gpt-4o-mini'

describe.skipIf(!live)('openai live (NESTOR_LIVE_TESTS=1 and OPENAI_API_KEY)', () => {
  for (const api of ['chat', 'responses'] as const) {
    it(`completes one tool round trip on the ${api} API`, async () => {
      const provider = openai({ api })
      const messages: Message[] = [{ role: 'user', content: 'What is the weather in Paris? Use the tool.' }]
      const first = await collect(provider.stream({ model, messages, tools: [weatherTool], toolChoice: 'required' }))
      expect(first.last.type).toBe('done')
      const call = first.final.content.find((c) => c.type === 'toolCall')
      expect(call).toMatchObject({ name: 'get_weather', arguments: { city: expect.stringMatching(/paris/i) } })
      if (call?.type !== 'toolCall') return
      messages.push(first.final, {
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: 'text', text: 'Sunny, 21 C' }],
        isError: false,
      })
      const second = await collect(provider.stream({ model, messages, tools: [weatherTool] }))
      expect(second.last.type).toBe('done')
      expect(second.final.content.some((c) => c.type === 'text' && /sunny|21/i.test(c.text))).toBe(true)
      expect(second.final.usage.total).toBeGreaterThan(0)
    }, 60_000)
  }
})
