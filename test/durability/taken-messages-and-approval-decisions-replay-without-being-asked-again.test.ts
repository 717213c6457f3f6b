import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, exec, memoryJournal, type AgentEvent } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { collect } from '../support/run.js'
import { asker, resultsIn } from './support/nested.js'

describe('replaying the messages and decisions a run took', () => {
  it('steering and follow-up messages come back from the journal at the point they were taken, marked replayed', async () => {
    const journal = memoryJournal()
    const provider = scripted((r: ModelRequest) => `answer ${r.messages.filter((m) => m.role === 'user').length}`)
    const runtime = new Runtime({ provider, model: 'm' })
    const run = runtime.exec('go', { toolset: 'none', journal, runId: 'r' })
    run.steer('be brief')
    run.followUp('and then?')
    const first = await run
    expect(first.history.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'user', 'assistant'])
    expect(provider.requests).toHaveLength(2)

    // Nothing is queued this time: the taken messages come from the journal, in place.
    const { events, result } = await collect(runtime.exec('go', { toolset: 'none', journal, runId: 'r' }))
    expect(provider.requests).toHaveLength(2)
    expect(result.history).toEqual(first.history)
    const users = events.filter(
      (e): e is Extract<AgentEvent, { type: 'message_end' }> => e.type === 'message_end' && e.message.role === 'user',
    )
    expect(users.map((e) => [e.message.content, e.replayed === true])).toEqual([
      ['go', false],
      ['be brief', true],
      ['and then?', true],
    ])
  })

  it('a decision the approve handler gave is replayed: the handler is not asked again for a body that runs again', async () => {
    const journal = memoryJournal()
    let asked = 0
    const write = defineTool({ name: 'write', description: 'w', parameters: z.object({}), execute: () => 'written' })
    // Needs approval and opens a child, so its body runs again on replay.
    const publish = defineTool({
      name: 'publish',
      description: 'p',
      parameters: z.object({}),
      needsApproval: true,
      execute: async () => (await exec('child', { tools: [write] })).text,
    })
    const provider = scripted((r: ModelRequest) => {
      const seen = resultsIn(r)
      if (asker(r) === 'child')
        return seen.length ? 'child done' : { content: [{ type: 'toolCall', id: 'w', name: 'write', arguments: {} }] }
      return seen.length
        ? `root: ${seen[0]}`
        : { content: [{ type: 'toolCall', id: 'p', name: 'publish', arguments: {} }] }
    })
    const runtime = new Runtime({ provider, model: 'm', approve: () => (asked++, true) })
    const first = await runtime.exec('go', { tools: [publish], journal, runId: 'r' })
    expect(first.text).toBe('root: child done')
    expect(asked).toBe(1)
    expect((await journal.load('r')).filter((e) => e.kind === 'decision').map((e) => e.key)).toEqual([
      'root#1:decision:p',
    ])

    const again = await runtime.exec('go', { tools: [publish], journal, runId: 'r' })
    expect(again.history).toEqual(first.history)
    expect(asked).toBe(1)
    expect(provider.requests).toHaveLength(4)
  })
})
