import { liveTestsEnabled } from '@nestor/agents/conformance'
// Talks to the real Gemini API. Runs only with NESTOR_LIVE_TESTS=1 and GEMINI_API_KEY set.
import { describe, expect, it } from 'vitest'
import type { AssistantMessage, Message } from '@nestor/core'
import { gemini } from '@nestor/providers'
import { collect, final, weatherTool } from '../../support/gemini-wire.js'

const live = liveTestsEnabled() && !!process.env.GEMINI_API_KEY
const model = process.env.NESTOR_GEMINI_MODEL ?? 'gemini-2.5-flash'

describe.skipIf(!live)('gemini live (NESTOR_LIVE_TESTS=1 and GEMINI_API_KEY)', () => {
  it('completes one tool round trip, replaying any thought signature', async () => {
    const provider = gemini()
    const messages: Message[] = [{ role: 'user', content: 'What is the weather in Paris? Use the tool.' }]
    const first = final(
      await collect(provider.stream({ model, messages, tools: [weatherTool], toolChoice: 'required' })),
    )
    expect(first.type).toBe('done')
    const call = first.message.content.find((c) => c.type === 'toolCall')
    expect(call).toMatchObject({ name: 'get_weather', arguments: { city: expect.stringMatching(/paris/i) } })
    if (call?.type !== 'toolCall') return
    messages.push(first.message, {
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: 'text', text: 'Sunny, 21 C' }],
      isError: false,
    })
    const second = final(await collect(provider.stream({ model, messages, tools: [weatherTool] })))
    expect(second.type).toBe('done')
    const answer = second.message as AssistantMessage
    expect(answer.content.some((c) => c.type === 'text' && /sunny|21/i.test(c.text))).toBe(true)
    expect(answer.usage.total).toBeGreaterThan(0)
  }, 60_000)
})
