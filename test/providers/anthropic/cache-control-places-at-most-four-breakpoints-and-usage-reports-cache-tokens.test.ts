import type { Message } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { anthropic, type AnthropicCacheControl } from '@nestor/providers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, scenario, weatherTool, type Body } from '../../support/anthropic-wire.js'

const history: Message[] = [
  { role: 'user', content: 'First question' },
  {
    role: 'assistant',
    content: [{ type: 'text', text: 'First answer' }],
    stopReason: 'stop',
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Second' },
      { type: 'text', text: 'question' },
    ],
  },
]
const timeTool = { name: 'get_time', description: 'Time', parameters: { type: 'object', properties: {} } }
const marked = (value: unknown): number => (JSON.stringify(value).match(/"cache_control"/g) ?? []).length

describe('anthropic({ cacheControl }): prompt-cache breakpoints', () => {
  let server: WireServer
  beforeEach(async () => {
    server = await startWireServer()
  })
  afterEach(() => server.close())

  const send = async (cacheControl?: AnthropicCacheControl) => {
    server.enqueue({ body: scenario('text.sse') })
    const { final } = await collect(
      anthropic({ apiKey: 'k', baseURL: server.url, cacheControl }).stream({
        model: 'claude-sonnet-4-6',
        system: 'You are terse.',
        messages: history,
        tools: [weatherTool, timeTool],
      }),
    )
    return { body: server.requests[0]?.json as Body, final }
  }

  it('true marks the system prompt, the last tool and the last two messages, and usage reports cache reads and writes', async () => {
    const { body, final } = await send(true)
    expect(body.system).toEqual([{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }])
    expect(body.tools?.[0]).not.toHaveProperty('cache_control')
    expect(body.tools?.[1]).toMatchObject({ name: 'get_time', cache_control: { type: 'ephemeral' } })
    expect(body.messages[0]?.content).toEqual([{ type: 'text', text: 'First question' }])
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'First answer', cache_control: { type: 'ephemeral' } },
    ])
    expect(body.messages[2]?.content).toEqual([
      { type: 'text', text: 'Second' },
      { type: 'text', text: 'question', cache_control: { type: 'ephemeral' } },
    ])
    expect(marked(body)).toBe(4)
    expect(final.message.usage).toMatchObject({ input: 25, cacheRead: 100, cacheWrite: 50 })
  })

  it('never exceeds four breakpoints: lastMessages 4 with system and tools marks only two messages', async () => {
    const { body } = await send({ lastMessages: 4, ttl: '1h' })
    expect(marked(body)).toBe(4)
    expect(body.messages[0]?.content).toEqual([{ type: 'text', text: 'First question' }])
    expect(body.system).toEqual([
      { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ])
  })

  it('without system and tools breakpoints, all messages may be marked', async () => {
    const { body } = await send({ system: false, tools: false, lastMessages: 3 })
    expect(body.system).toBe('You are terse.')
    expect(marked(body.tools)).toBe(0)
    expect(marked(body.messages)).toBe(3)
  })

  it('no cacheControl sends no breakpoint', async () => {
    const { body } = await send(undefined)
    expect(marked(body)).toBe(0)
  })

  it('an unknown key or an out-of-range count fails invalid_options when the provider is made', () => {
    const code = (f: () => unknown) => {
      try {
        f()
      } catch (error) {
        return NestorError.isInstance(error) ? `${error.code}: ${error.message}` : String(error)
      }
      return 'no error'
    }
    expect(code(() => anthropic({ apiKey: 'k', cacheControl: { lastMesages: 2 } as never }))).toMatch(
      /^invalid_options: .*cacheControl\.lastMesages/,
    )
    expect(code(() => anthropic({ apiKey: 'k', cacheControl: { lastMessages: 5 } }))).toMatch(
      /^invalid_options: .*cacheControl\.lastMessages/,
    )
  })
})
