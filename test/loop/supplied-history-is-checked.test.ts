import { describe, expect, it } from 'vitest'
import { Runtime, type AssistantMessage, type Message, type ToolResultMessage } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { call } from '../support/run.js'
import { thrown } from '../support/thrown.js'

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }
const asked = (...calls: AssistantMessage['content']): AssistantMessage => ({
  role: 'assistant',
  content: calls,
  stopReason: 'toolUse',
  usage,
  provider: 'p',
  model: 'm',
})
const answer = (id: string, toolName = 'echo'): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName,
  content: [{ type: 'text', text: 'ok' }],
  isError: false,
})
const user: Message = { role: 'user', content: 'hi' }

describe('a supplied history is checked before any request', () => {
  it.each<[string, Message[], RegExp]>([
    ['an empty call id', [user, asked(call('echo', {}, '')), answer('')], /history\.1: .*empty id/],
    [
      'an empty tool name',
      [user, asked(call('', {}, 'a')), answer('a', '')],
      /history\.1: tool call a has an empty name/,
    ],
    [
      'a call id used twice',
      [user, asked(call('echo', {}, 'a')), answer('a'), asked(call('echo', {}, 'a')), answer('a')],
      /history\.3: tool call id a is used more than once/,
    ],
    [
      'a call without a result',
      [user, asked(call('echo', {}, 'a'), call('echo', {}, 'b')), answer('a'), asked()],
      /history\.1: tool call b has no result before the next assistant message/,
    ],
    [
      'a call without a result at the end',
      [user, asked(call('echo', {}, 'a'))],
      /history\.1: tool call a has no result before the end/,
    ],
    [
      'a call with two results',
      [user, asked(call('echo', {}, 'a')), answer('a'), answer('a')],
      /history\.3: tool call a has more than one result/,
    ],
    ['a result without a call', [user, answer('z')], /history\.1: result z answers no tool call/],
  ])('%s is invalid_options naming the problem, and no request is made', (_, history, message) => {
    const provider = scripted(['never'])
    const runtime = new Runtime({ provider, model: 'm' })
    const error = thrown(() => runtime.exec('go', { history, tools: [] }))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toMatch(message)
    expect(provider.requests).toHaveLength(0)
  })

  it('a well-paired history runs, and the input may answer its last calls', async () => {
    const provider = scripted(['fine', 'also fine'])
    const runtime = new Runtime({ provider, model: 'm' })
    const history = [user, asked(call('echo', {}, 'a')), answer('a'), asked(call('echo', {}, 'b'))]
    expect((await runtime.exec([answer('b')], { history, tools: [] })).status).toBe('completed')
    expect((await runtime.exec('next', { history: [...history, answer('b')], tools: [] })).status).toBe('completed')
  })
})
