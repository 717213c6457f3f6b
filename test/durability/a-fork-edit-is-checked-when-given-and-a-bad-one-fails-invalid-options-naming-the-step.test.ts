import { describe, expect, it } from 'vitest'
import { Runtime, defineTool, memoryJournal, type ForkSource, type Journal } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { calls } from '../support/run.js'

// A fork's edit becomes a journal step the fork replays: a malformed one is refused when the fork
// is asked for, `invalid_options` naming the step, before any journal is read or anything runs.

async function recorded() {
  let searches = 0
  const search = defineTool({
    name: 'search',
    description: 'Search',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => (searches++, `${q}: sunny`),
  })
  const journal = memoryJournal()
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'search', id: 'call_s', args: { q: 'lisbon' } }), 'sunny it is', 'live']),
    model: 'm',
  })
  const result = await runtime.exec('Plan Lisbon', { tools: [search], journal, runId: 'trip-1' })
  expect(result.status).toBe('completed')
  return { journal: journal as Journal, runtime, tools: [search], searches: () => searches }
}

describe('a fork edit that is not one', () => {
  it.each([
    ['a toolResult whose content is not an array', 'root#1:tool:call_s', { toolResult: { content: 'no results' } }],
    [
      'a toolResult part of no known type',
      'root#1:tool:call_s',
      { toolResult: { content: [{ type: 'html', html: '<b>' }] } },
    ],
    ['a user message at a model step', 'root#1:model', { message: { role: 'user', content: 'search again' } }],
    [
      'an assistant message whose content is not an array',
      'root#1:model',
      { message: { role: 'assistant', content: { type: 'text', text: 'hi' } } },
    ],
    ['a message list holding a malformed message', 'root#1:model', { message: [{ role: 'user' }] }],
    ['no edit at all', 'root#1:model', { rewrite: 'x' }],
  ])('%s is refused invalid_options naming the step, before anything runs', async (_what, at, edit) => {
    const { journal, runtime, tools, searches } = await recorded()
    const source = { journal, runId: 'trip-1', at, edit } as unknown as ForkSource
    expect(() => runtime.fork(source, { runId: 'trip-2', tools })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining(at) }),
    )
    expect(await journal.load('trip-2')).toEqual([])
    expect(searches()).toBe(1)
  })

  it('a well-formed assistant message at a model step is taken (the edit check is no stricter than the journal)', async () => {
    const { journal, runtime, tools } = await recorded()
    const [first] = await journal.load('trip-1')
    const message = { ...(first!.message as object), content: [{ type: 'text', text: 'no need to search' }] }
    const fork = await runtime.fork(
      { journal, runId: 'trip-1', at: 'root#1:model', edit: { message } as never },
      { runId: 'trip-2', tools },
    )
    expect(fork.status).toBe('completed')
    expect(fork.text).toBe('no need to search')
  })
})
