import { expect, it } from 'vitest'
import { Runtime, defineTool, type HistoryMessage, type ModelRequest } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { thrown } from '../support/thrown.js'

// Both types come from the main entry: a scripted model's argument, and a hand-written history.
const seen: ModelRequest[] = []
const model = () => scripted((request: ModelRequest) => (seen.push(request), 'ok'))
const note = defineTool({
  name: 'note',
  description: 'Notes',
  parameters: { type: 'object', properties: {} },
  execute: () => 'noted',
})

it('an assistant message written by hand gets a stop reason, zero usage and empty provider and model', async () => {
  const history: HistoryMessage[] = [
    { role: 'user', content: 'Remember 7.' },
    { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'note', arguments: {} }] },
    {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'note',
      content: [{ type: 'text', text: 'noted' }],
      isError: false,
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Noted 7.' }] },
  ]
  seen.length = 0
  const result = await new Runtime({ provider: model(), model: 'm' }).exec('What was it?', { history, tools: [note] })
  expect(result.status).toBe('completed')
  const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }
  expect(seen[0]!.messages.slice(1, 4)).toEqual([
    { ...history[1], stopReason: 'toolUse', usage: zero, provider: '', model: '' },
    history[2],
    { ...history[3], stopReason: 'stop', usage: zero, provider: '', model: '' },
  ])
})

it('a wrong value is worded once: expected one of the stop reasons', () => {
  const history = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'hello' }], stopReason: 'done' },
  ] as unknown as HistoryMessage[]
  const error = thrown(() => new Runtime({ provider: model(), model: 'm' }).exec('go', { history }))
  expect(error.code).toBe('invalid_options')
  expect(error.message).toMatch(/^invalid option history\.1\.stopReason: expected one of "stop"\|.*, got "done"$/)
  expect(error.message).not.toContain('expected Invalid')
})
