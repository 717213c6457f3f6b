import { NestorError } from '@nestor/core'
import { anthropic, fallback, openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import * as chat from '../wire/openai/chat-scenarios.js'
import { anthropicScenario, collect, json, useTwoWires } from '../../support/fallback-wires.js'

const request = { model: 'x', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }

describe('fallback: what does not move the chain on', () => {
  const wire = useTwoWires()
  const chain = (options: Parameters<typeof fallback>[1] = {}) =>
    fallback(
      [
        {
          provider: openai({ baseURL: `${wire.first.url}/v1`, apiKey: 'sk-first', maxRetries: 0 }),
          model: 'gpt-4o-mini',
        },
        { provider: anthropic({ baseURL: wire.second.url, apiKey: 'sk-ant-second' }), model: 'claude-sonnet-4-6' },
      ],
      options,
    )

  it('a failure after text streamed ends the stream with the partial message and asks nobody else', async () => {
    wire.first.enqueue({ body: chat.garbage() })
    const events = await collect(chain().stream(request))
    const last = events.at(-1)
    expect(last?.type).toBe('error')
    expect(last && 'message' in last ? last.message.content : undefined).toEqual([{ type: 'text', text: 'Hel' }])
    expect(events.filter((e) => e.type === 'start')).toHaveLength(1)
    expect(events.some((e) => e.type === 'retry')).toBe(false)
    expect(wire.second.requests).toHaveLength(0)
  })

  it('a 400 is final by default, with the first provider’s own error', async () => {
    wire.first.enqueue({
      status: 400,
      headers: json,
      body: chat.errorBody('bad request', 'invalid_request_error', null),
    })
    const events = await collect(chain().stream(request))
    expect(events.map((e) => e.type)).toEqual(['start', 'error'])
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 400, provider: 'openai', retryable: false } })
    expect(wire.second.requests).toHaveLength(0)
  })

  it("with on: 'any' a 400 moves on to the next provider", async () => {
    wire.first.enqueue({
      status: 400,
      headers: json,
      body: chat.errorBody('bad request', 'invalid_request_error', null),
    })
    wire.second.enqueue({ body: anthropicScenario('text.sse') })
    const events = await collect(chain({ on: 'any' }).stream(request))
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['retry', 'start'])
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      message: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
    })
  })

  it('an unknown option or an empty chain fails invalid_options at once', () => {
    expect(() => fallback([openai({ apiKey: 'k' })], { onn: 'any' } as never)).toThrow(/unknown option "onn"/)
    try {
      fallback([])
      expect.unreachable()
    } catch (error) {
      expect(NestorError.isInstance(error) && error.code).toBe('invalid_options')
    }
  })
})
