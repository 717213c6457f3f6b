import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type Provider } from '@nestor/core'
import { redactDeep, redactString } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'

const PASSWORD = 'hunter2-correct-horse'
const API_KEY = 'sk-live-9f8e7d6c5b4a'

/** A scripted model that echoes secrets back, behind a provider that declares its API key. */
function leakyProvider(): Provider {
  const inner = scripted([
    calls({ name: 'login', args: { user: 'ada', password: PASSWORD } }),
    calls({ name: 'delegate', args: {} }),
    { content: [{ type: 'text', text: `done with ${API_KEY} and ${PASSWORD}` }] },
  ])
  return { name: inner.name, stream: (request, signal) => inner.stream(request, signal), secrets: () => [API_KEY] }
}

function build() {
  const login = defineTool({
    name: 'login',
    description: 'Log in',
    parameters: z.object({ user: z.string(), password: z.string() }),
    execute: ({ password }) => {
      throw new Error(`login failed for password ${password} using key ${API_KEY}`)
    },
  })
  // A nested exec whose tool call carries the password too, so child events are covered.
  const delegate = defineTool({
    name: 'delegate',
    description: 'Nested exec',
    parameters: z.object({}),
    execute: async () => (await runtime.exec('inner', { provider: childProvider, tools: [login] })).text,
  })
  const childProvider = scripted([
    calls({ name: 'login', args: { user: 'bob', password: PASSWORD } }),
    `child saw ${PASSWORD}`,
  ])
  const runtime = new Runtime({ provider: leakyProvider(), model: 'm', secrets: [PASSWORD] })
  return { runtime, login, delegate }
}

describe('redaction', () => {
  it('a runtime secret in tool arguments and in a tool error, and the provider API key, never reach any event of the root stream or of runtime.on("*")', async () => {
    const { runtime, login, delegate } = build()
    const global: AgentEvent[] = []
    runtime.on('*', (e) => global.push(e))
    const { events, result } = await collect(runtime.exec('go', { tools: [login, delegate] }))
    expect(result.status).toBe('completed')
    // The secrets were really there: the tool saw them and events carry the redacted marker.
    expect(events.some((e) => e.type === 'tool_end' && e.depth === 1)).toBe(true)
    const all = [...events, ...global]
    expect(all.length).toBeGreaterThan(20)
    for (const event of all) {
      const json = JSON.stringify(event)
      expect(json).not.toContain(PASSWORD)
      expect(json).not.toContain(API_KEY)
    }
    expect(all.some((e) => JSON.stringify(e).includes('[REDACTED]'))).toBe(true)
    const toolEnd = events.find((e) => e.type === 'tool_end' && e.depth === 0 && e.toolName === 'login') as Extract<
      AgentEvent,
      { type: 'tool_end' }
    >
    expect(toolEnd.result.content[0]).toEqual({
      type: 'text',
      text: 'login failed for password [REDACTED] using key [REDACTED]',
    })
  })

  it('the agent_end event redacts every copy of a message, also when history and messages share the same objects', async () => {
    const { runtime, login, delegate } = build()
    const { events } = await collect(runtime.exec('go', { tools: [login, delegate] }))
    const end = events.filter(
      (e): e is Extract<AgentEvent, { type: 'agent_end' }> => e.type === 'agent_end' && e.depth === 0,
    )[0]!
    for (const part of [end.result.messages, end.result.history, end.result.receipts]) {
      expect(JSON.stringify(part)).not.toContain(PASSWORD)
    }
  })

  it('agent_end passes the clean prior messages through as they are and still redacts the prior one holding a secret', async () => {
    const runtime = new Runtime({ provider: scripted(['ok']), model: 'm', secrets: [PASSWORD] })
    const clean = Array.from({ length: 6 }, (_, i) => ({ role: 'user' as const, content: `question ${i}` }))
    const dirty = { role: 'user' as const, content: `my password is ${PASSWORD}` }
    const history = [...clean.slice(0, 3), dirty, ...clean.slice(3)]
    const { events } = await collect(runtime.exec('go', { history }))
    const end = events.find((e): e is Extract<AgentEvent, { type: 'agent_end' }> => e.type === 'agent_end')!
    const seen = end.result.history
    expect(seen).toHaveLength(history.length + 2)
    for (const [i, message] of history.entries()) {
      if (message === dirty) expect(seen[i]).toEqual({ role: 'user', content: 'my password is [REDACTED]' })
      else expect(seen[i]).toBe(message)
    }
    expect(dirty.content).toContain(PASSWORD)
  })

  it('receipts, in the result and on tool_end, never carry a secret (their signature holds the arguments)', async () => {
    const { runtime, login, delegate } = build()
    const { events, result } = await collect(runtime.exec('go', { tools: [login, delegate] }))
    expect(result.receipts.length).toBeGreaterThan(0)
    const receipts = [...result.receipts, ...events.flatMap((e) => (e.type === 'tool_end' ? [e.receipt] : []))]
    expect(receipts.some((r) => r.signature.includes('[REDACTED]'))).toBe(true)
    for (const receipt of receipts) {
      expect(JSON.stringify(receipt)).not.toContain(PASSWORD)
      expect(JSON.stringify(receipt)).not.toContain(API_KEY)
    }
    expect(JSON.stringify(result.error ?? null)).not.toContain(PASSWORD)
  })

  it('a failing exec reports its error redacted', async () => {
    const inner = scripted([{ error: `upstream rejected key ${API_KEY}`, status: 401 }])
    const provider: Provider = { name: 'p', stream: (r, s) => inner.stream(r, s), secrets: () => [API_KEY] }
    const { events, result } = await collect(new Runtime({ provider, model: 'm' }).exec('go'))
    expect(result.status).toBe('failed')
    expect(result.error?.message).toContain('[REDACTED]')
    expect(result.error?.message).not.toContain(API_KEY)
    for (const e of events) expect(JSON.stringify(e)).not.toContain(API_KEY)
  })

  it('redactDeep redacts an object reached twice at both places and leaves clean values untouched', () => {
    const shared = { text: `pw ${PASSWORD}` }
    const out = redactDeep({ messages: [shared], history: [shared] }, [PASSWORD])
    expect(out.messages[0]!.text).toBe('pw [REDACTED]')
    expect(out.history[0]!.text).toBe('pw [REDACTED]')
    expect(shared.text).toBe(`pw ${PASSWORD}`) // the original is not modified
    const clean = { a: [1, 'x'] }
    expect(redactDeep(clean, [PASSWORD])).toBe(clean)
  })

  it('a secret that contains another secret is redacted whole, whatever order the secrets were given in', () => {
    expect(redactString('key sk-abc1-long-tail here', ['sk-abc1', 'sk-abc1-long-tail'])).toBe('key [REDACTED] here')
    expect(redactDeep({ k: 'sk-abc1-long-tail' }, ['sk-abc1', 'sk-abc1-long-tail'])).toEqual({ k: '[REDACTED]' })
  })
})
