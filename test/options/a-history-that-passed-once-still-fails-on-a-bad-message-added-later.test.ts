import { Runtime, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { thrown } from '../support/thrown.js'

// Each history message is checked once per message object (a conversation resends the same ones
// exec after exec); what is new is still checked, and a failure names its index.
describe('exec({ history }) across a conversation', () => {
  it('accepts the grown history and refuses a bad message appended to it, naming its index', async () => {
    const runtime = new Runtime({ provider: scripted(['a', 'b', 'c']), model: 'm' })
    const first = await runtime.exec('one')
    const second = await runtime.exec('two', { history: first.messages })
    expect(second.status).toBe('completed')
    const history = [...first.messages, ...second.messages]
    const bad = [...history, { role: 'assistant', content: null } as unknown as Message]
    const error = thrown(() => runtime.exec('three', { history: bad }))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain(`invalid option history.${history.length}`)
    expect((await runtime.exec('three', { history })).status).toBe('completed')
  })
})
