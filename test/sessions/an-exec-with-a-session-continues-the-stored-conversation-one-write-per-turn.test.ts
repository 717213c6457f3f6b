import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  NestorError,
  Runtime,
  defineTool,
  memoryJournal,
  memorySessions,
  type Message,
  type SessionStore,
} from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

/** The memory store, with every append it receives counted (the store itself is real). */
function counted(store: SessionStore) {
  const writes: { turn: number; count: number; replace?: boolean }[] = []
  const seen: SessionStore = {
    ...store,
    limits: store.limits,
    acquire: (id, lease) => store.acquire(id, lease),
    release: (id, lease) => store.release(id, lease),
    load: (id, read) => store.load(id, read),
    messages: (id, read) => store.messages(id, read),
    list: (q) => store.list(q),
    fork: (id, o) => store.fork(id, o),
    delete: (id, o) => store.delete(id, o),
    append: async (id, write) => {
      await store.append(id, write)
      writes.push({ turn: write.turn, count: write.messages.length, ...(write.replace && { replace: true }) })
    },
  }
  return { store: seen, writes }
}

const roles = (messages: Message[]) => messages.map((m) => m.role)
const lookup = defineTool({
  name: 'lookup',
  description: 'looks a city up',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny`,
})

describe('exec with a session', () => {
  it('starts from the stored conversation and stores each turn in one write', async () => {
    const { store, writes } = counted(memorySessions())
    const provider = scripted([
      calls({ name: 'lookup', args: { city: 'Lisbon' } }),
      'Sunny in Lisbon.',
      'And Porto too.',
    ])
    const runtime = new Runtime({ provider, model: 'm', sessions: store })
    const session = { id: 'chat-1', owner: 'ana' }
    const first = await runtime.exec('Weather in Lisbon?', { tools: [lookup], session })
    expect(first.status).toBe('completed')
    // Two turns, two writes: the input with the tool turn, then the answer.
    expect(writes).toEqual([
      { turn: 1, count: 3 },
      { turn: 2, count: 1 },
    ])
    const second = await runtime.exec('And Porto?', { session })
    expect(second.status).toBe('completed')
    // The model saw the whole stored conversation before the new input.
    expect(roles(provider.requests[2]!.messages)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'user'])
    const stored = await runtime.sessions.messages('chat-1', { owner: 'ana' })
    expect(roles(stored)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'user', 'assistant'])
    expect(historyProblems(stored)).toEqual([])
  })

  it('a session of another owner answers like an unknown one, and an exec on it fails not_found before any request', async () => {
    const provider = scripted(['hi'])
    const runtime = new Runtime({ provider, model: 'm', sessions: memorySessions() })
    await runtime.exec('hello', { session: { id: 's', owner: 'ana' } })
    expect(await runtime.sessions.messages('s', { owner: 'bob' })).toEqual(
      await runtime.sessions.messages('x', { owner: 'bob' }),
    )
    expect((await runtime.sessions.list({ owner: 'bob' })).sessions).toEqual([])
    await expect(runtime.sessions.fork('s', { owner: 'bob', at: 1 })).rejects.toMatchObject({ code: 'not_found' })
    await expect(runtime.sessions.fork('nope', { owner: 'bob', at: 1 })).rejects.toMatchObject({ code: 'not_found' })
    expect(await runtime.sessions.delete('s', { owner: 'bob' })).toBe(false)
    const refused = await runtime.exec('let me in', { session: { id: 's', owner: 'bob' } })
    expect(refused.error?.code).toBe('not_found')
    expect(provider.requests).toHaveLength(1)
    expect(await runtime.sessions.messages('s', { owner: 'ana' })).toHaveLength(2)
  })

  it('a second exec on a busy session fails session_busy before any request, or waits for it when asked', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const slow = defineTool({
      name: 'slow',
      description: 'd',
      parameters: z.object({}),
      execute: async () => (await gate, 'done'),
    })
    const provider = scripted([calls({ name: 'slow' }), 'first done', 'second done'])
    const runtime = new Runtime({ provider, model: 'm', sessions: memorySessions() })
    const session = { id: 'busy', owner: 'ana' }
    const first = runtime.exec('one', { tools: [slow], session })
    while (provider.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    const busy = await runtime.exec('two', { session })
    expect(busy.status).toBe('failed')
    expect(busy.error?.code).toBe('session_busy')
    expect(provider.requests).toHaveLength(1)
    const waiting = runtime.exec('three', { session: { ...session, wait: true } })
    const aborter = new AbortController()
    const abandoned = runtime.exec('four', { session: { ...session, wait: true }, signal: aborter.signal })
    aborter.abort()
    expect((await abandoned).status).toBe('aborted')
    release()
    expect((await first).status).toBe('completed')
    const waited = await waiting
    expect(waited.text).toBe('second done')
    const stored = await runtime.sessions.messages('busy', { owner: 'ana' })
    expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one', 'three'])
    expect(historyProblems(stored)).toEqual([])
  })

  it('an exec the runtime refuses (maxLiveRuns) never takes its session: the next one gets it at once', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const slow = defineTool({
      name: 'slow',
      description: 'd',
      parameters: z.object({}),
      execute: async () => (await gate, 'done'),
    })
    const provider = scripted([calls({ name: 'slow' }), 'first done', 'third done'])
    const runtime = new Runtime({ provider, model: 'm', sessions: memorySessions(), retention: { maxLiveRuns: 1 } })
    const first = runtime.exec('one', { tools: [slow] })
    while (provider.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    const refused = await runtime.exec('two', { session: { id: 'r', owner: 'ana' } })
    expect(refused.error?.code).toBe('budget_exceeded')
    release()
    await first
    const third = await runtime.exec('three', { session: { id: 'r', owner: 'ana' } })
    expect(third.status).toBe('completed')
    expect(third.error).toBeUndefined()
  })

  it('a failed turn stores nothing of itself: the history stays valid and ends after the last good turn', async () => {
    const provider = scripted([
      calls({ name: 'lookup', args: { city: 'Oslo' } }),
      { error: 'upstream down', status: 500 },
    ])
    const runtime = new Runtime({ provider, model: 'm', sessions: memorySessions(), maxRetries: 0 })
    const result = await runtime.exec('Oslo?', { tools: [lookup], session: { id: 'f', owner: 'ana' } })
    expect(result.status).toBe('failed')
    const stored = await runtime.sessions.messages('f', { owner: 'ana' })
    expect(roles(stored)).toEqual(['user', 'assistant', 'toolResult'])
    expect(historyProblems(stored)).toEqual([])
  })

  it('a paused exec stores no half turn; resumed with its session it appends after the pause', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'd',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'paid',
    })
    const provider = scripted([
      calls({ name: 'lookup', args: { city: 'Rome' } }),
      calls({ name: 'pay' }),
      'paid, thanks',
    ])
    const runtime = new Runtime({ provider, model: 'm', sessions: memorySessions() })
    const session = { id: 'p', owner: 'ana' }
    const paused = await runtime.exec('book Rome', { tools: [lookup, pay], session })
    expect(paused.status).toBe('paused')
    expect(roles(await runtime.sessions.messages('p', { owner: 'ana' }))).toEqual(['user', 'assistant', 'toolResult'])
    const resumed = await runtime.resume(
      paused.pending!.state,
      { approve: [paused.pending!.approvals[0]!.toolCallId] },
      { tools: [lookup, pay], session },
    )
    expect(resumed.status).toBe('completed')
    const stored = await runtime.sessions.messages('p', { owner: 'ana' })
    expect(roles(stored)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant'])
    expect(historyProblems(stored)).toEqual([])
  })

  it('a journaled exec run again under its run id appends exactly once', async () => {
    const journal = memoryJournal()
    const store = memorySessions()
    const session = { id: 'j', owner: 'ana' }
    const turns = [calls({ name: 'lookup', args: { city: 'Nice' } }), 'Nice is sunny.']
    await new Runtime({ provider: scripted(turns), model: 'm', sessions: store }).exec('Nice?', {
      tools: [lookup],
      session,
      journal,
      runId: 'run-1',
    })
    const replay = scripted(turns)
    const again = await new Runtime({ provider: replay, model: 'm', sessions: store }).exec('Nice?', {
      tools: [lookup],
      session,
      journal,
      runId: 'run-1',
    })
    expect(again.status).toBe('completed')
    expect(replay.requests).toHaveLength(0)
    expect(roles(await store.messages('j', { owner: 'ana' }))).toEqual(['user', 'assistant', 'toolResult', 'assistant'])
  })

  it('bounds: a write past maxMessages fails session_full and keeps what was stored; secrets never reach the store', async () => {
    const secret = 'sk-live-4242424242'
    const provider = scripted([`your key is ${secret}`, 'again'])
    const runtime = new Runtime({
      provider,
      model: 'm',
      secrets: [secret],
      sessions: memorySessions({ maxMessages: 3 }),
    })
    const session = { id: 'b', owner: 'ana' }
    expect((await runtime.exec(`remember ${secret}`, { session })).status).toBe('completed')
    const stored = await runtime.sessions.messages('b', { owner: 'ana' })
    expect(JSON.stringify(stored)).not.toContain(secret)
    expect(JSON.stringify(stored)).toContain('[REDACTED]')
    const full = await runtime.exec('more', { session })
    expect(full.error?.code).toBe('session_full')
    expect(await runtime.sessions.messages('b', { owner: 'ana' })).toHaveLength(2)
  })

  it('bad options throw invalid_options at the call: session with history, a session without a store', () => {
    const withStore = new Runtime({ provider: scripted(['x']), model: 'm', sessions: memorySessions() })
    const without = new Runtime({ provider: scripted(['x']), model: 'm' })
    const history: Message[] = [{ role: 'user', content: 'earlier' }]
    expect(() => withStore.exec('hi', { session: { id: 'a', owner: 'o' }, history })).toThrow(NestorError)
    expect(() => without.exec('hi', { session: { id: 'a', owner: 'o' } })).toThrow(/sessions/)
    expect(() => withStore.exec('hi', { session: { id: '', owner: 'o' } })).toThrow(/session.id/)
  })
})
