import { describe, expect, it } from 'vitest'
import { Runtime, memorySessions, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { historyProblems } from '../support/run.js'

const long = (n: number) => `${n}: ${'a long paragraph about the trip '.repeat(400)}`

describe('sessions with context', () => {
  it('a compaction replaces the stored conversation: the next exec starts from the summary and does not compact again', async () => {
    const sessions = memorySessions()
    // No reported usage: the window is estimated from the messages themselves.
    const provider = scripted((request) => ({
      content: [{ type: 'text', text: `seen ${request.messages.length}` }],
      usage: { input: 0 },
    }))
    const session = { id: 'long', owner: 'ana' }
    const plain = new Runtime({ provider, model: 'm', sessions })
    await plain.exec(long(1), { session })
    await plain.exec(long(2), { session })
    let compactions = 0
    const context = {
      maxTokens: 4000,
      reserveTokens: 500,
      strategy: (messages: Message[]): Message[] => {
        compactions++
        return [{ role: 'user', content: `summary of ${messages.length - 1} messages` }, ...messages.slice(-1)]
      },
    }
    const windowed = new Runtime({ provider, model: 'm', sessions, context })
    const third = await windowed.exec('short question', { session })
    expect(third.status).toBe('completed')
    expect(compactions).toBe(1)
    const stored = await sessions.messages('long', { owner: 'ana' })
    expect(stored.map((m) => (m.role === 'user' ? m.content : m.role))).toEqual([
      'summary of 4 messages',
      'short question',
      'assistant',
    ])
    const fourth = await windowed.exec('and then?', { session })
    expect(fourth.text).toBe('seen 4')
    expect(compactions).toBe(1)
    // The replaced messages stay listable until retention drops them.
    const all = await sessions.messages('long', { owner: 'ana', all: true })
    expect(all).toHaveLength(4 + 5)
    expect(historyProblems(await sessions.messages('long', { owner: 'ana' }))).toEqual([])
  })
})
