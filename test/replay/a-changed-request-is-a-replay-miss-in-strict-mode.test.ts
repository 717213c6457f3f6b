import type { ModelEvent, ModelRequest } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import { replay, scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { drain, tempDir, weatherRequest } from '../support/cassette-files.js'

const recordOne = async (request: ModelRequest) => {
  const dir = await tempDir()
  await drain(replay({ provider: scripted(['It is sunny.']), dir, mode: 'record' }), request)
  return dir
}

async function lastEvent(dir: string, request: ModelRequest): Promise<ModelEvent[]> {
  const events: ModelEvent[] = []
  for await (const event of replay({ dir, mode: 'strict' }).stream(request)) events.push(event)
  return events
}

describe('replay strict mode: a request that differs in anything the model sees is a miss', () => {
  const changes: [string, Partial<ModelRequest>][] = [
    ['the model', { model: 'gpt-4o' }],
    ['the system prompt', { system: 'Be terse.' }],
    ['a message', { messages: [{ role: 'user', content: 'Weather in Lyon?' }] }],
    ['the tools', { tools: [] }],
    ['the tool choice', { toolChoice: 'required' }],
    ['parallelToolCalls', { parallelToolCalls: false }],
    [
      'a tool call id in the history',
      {
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: [{ type: 'toolCall', id: 'call_2', name: 'get_weather', arguments: { city: 'Paris' } }],
            stopReason: 'toolUse',
            usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
            provider: 'x',
            model: 'm',
          },
          {
            role: 'toolResult',
            toolCallId: 'call_2',
            toolName: 'get_weather',
            content: [{ type: 'text', text: 'sun' }],
            isError: false,
          },
        ],
      },
    ],
  ]

  for (const [what, change] of changes) {
    it(`changing ${what} gives a replay_miss error naming the key, never another recording`, async () => {
      const dir = await recordOne(weatherRequest())
      const changed = weatherRequest(change)
      const key = replay({ dir, mode: 'strict' }).keyOf(changed)
      expect(key).not.toBe(replay({ dir, mode: 'strict' }).keyOf(weatherRequest()))
      const events = await lastEvent(dir, changed)
      const last = events.at(-1)
      expect(last?.type).toBe('error')
      if (last?.type !== 'error') return
      expect(NestorError.isInstance(last.error)).toBe(true)
      expect(last.error.code).toBe('replay_miss')
      expect(last.error.message).toContain(key)
      expect(last.message.stopReason).toBe('error')
      expect(events.some((e) => e.type === 'text_delta')).toBe(false)
    })
  }

  it('usage and provider data on past assistant messages do not change the key', async () => {
    const history = (usage: number): ModelRequest =>
      weatherRequest({
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'hello' }],
            stopReason: 'stop',
            usage: { input: usage, output: 1, cacheRead: 0, cacheWrite: 0, total: usage + 1 },
            provider: 'a',
            model: 'b',
            providerData: { id: String(usage) },
          },
          { role: 'user', content: 'weather?' },
        ],
      })
    const provider = replay({ dir: '/nonexistent', mode: 'strict' })
    expect(provider.keyOf(history(1))).toBe(provider.keyOf(history(999)))
  })

  it('the same request replays in strict mode', async () => {
    const dir = await recordOne(weatherRequest())
    const events = await lastEvent(dir, weatherRequest())
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      message: { content: [{ type: 'text', text: 'It is sunny.' }] },
    })
  })

  it('record and auto mode need a provider to record from', () => {
    expect(() => replay({ dir: '/tmp', mode: 'record' })).toThrow(/provider/)
    expect(() => replay({ dir: '/tmp', mode: 'auto' })).toThrow(/provider/)
  })
})
