import type { Message } from '@nestor/core'
import { anthropic } from '@nestor/providers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, scenario, type Body } from '../../support/anthropic-wire.js'

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }
const answer = (text: string): Message => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'stop',
  usage,
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
})
const marked = (value: unknown): number => (JSON.stringify(value).match(/"cache_control"/g) ?? []).length

describe('anthropic: the same message objects sent turn after turn', () => {
  let server: WireServer
  beforeEach(async () => {
    server = await startWireServer()
  })
  afterEach(() => server.close())

  it('marks only the last messages of each request, never the earlier requests’ last messages', async () => {
    const provider = anthropic({ apiKey: 'k', baseURL: server.url, cacheControl: { system: false, tools: false } })
    const history: Message[] = [{ role: 'user', content: 'one' }, answer('two')]
    for (const next of ['three', 'five']) {
      server.enqueue({ body: scenario('text.sse') })
      await collect(provider.stream({ model: 'claude-sonnet-4-6', messages: [...history], tools: [] }))
      history.push({ role: 'user', content: next }, answer(`${next}!`))
    }
    const [first, second] = server.requests.map((r) => r.json as Body)
    expect(marked(first?.messages)).toBe(2)
    expect(marked(second?.messages)).toBe(2)
    expect(marked(second?.messages.slice(0, 2))).toBe(0)
    expect(second?.messages.slice(0, 2)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'one' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
    ])
  })

  it('sends a replaced message object as it is now, not as it was converted before', async () => {
    const provider = anthropic({ apiKey: 'k', baseURL: server.url })
    const first: Message = { role: 'user', content: 'draft' }
    server.enqueue({ body: scenario('text.sse') })
    await collect(provider.stream({ model: 'claude-sonnet-4-6', messages: [first], tools: [] }))
    server.enqueue({ body: scenario('text.sse') })
    await collect(
      provider.stream({ model: 'claude-sonnet-4-6', messages: [{ ...first, content: 'final' }], tools: [] }),
    )
    expect(JSON.stringify((server.requests[1]?.json as Body).messages)).toContain('final')
  })
})
