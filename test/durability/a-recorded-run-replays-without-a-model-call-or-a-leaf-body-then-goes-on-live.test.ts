import { describe, expect, it } from 'vitest'
import { Runtime, memoryJournal, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { collect, historyProblems } from '../support/run.js'
import { twoLevels } from './support/nested.js'

describe('a run given a journal that holds its steps', () => {
  it('replays them: no provider call, no leaf body, the body that opened a child runs again, the same history', async () => {
    const journal = memoryJournal()
    const tree = twoLevels()
    const runtime = new Runtime({ provider: tree.provider, model: 'm' })
    const first = await runtime.exec('go', { tools: tree.tools, journal, runId: 'r1' })
    expect(first.status).toBe('completed')
    expect(first.text).toBe('root saw child saw wrote x')
    expect(tree.counts).toEqual({ model: 4, outer: 1, write: 1 })

    const { events, result } = await collect(runtime.exec('go', { tools: tree.tools, journal, runId: 'r1' }))
    expect(result.status).toBe('completed')
    expect(tree.counts).toEqual({ model: 4, outer: 2, write: 1 })
    expect(result.history).toEqual(first.history)
    expect(result.text).toBe(first.text)
    expect(historyProblems(result.history)).toEqual([])
    // Replayed steps say so, and stream no deltas.
    expect(events.filter((e) => e.type === 'message_delta')).toEqual([])
    const marked = (e: AgentEvent) => 'replayed' in e && e.replayed === true
    expect(events.filter((e) => e.type === 'message_end' && e.message.role === 'assistant').every(marked)).toBe(true)
    expect(events.filter((e) => e.type === 'tool_end').map((e) => [e.depth, e.toolName, marked(e)])).toEqual([
      [1, 'write', true],
      [0, 'outer', false],
    ])
    expect(events.filter((e) => e.type === 'tool_start' && e.toolName === 'write').every(marked)).toBe(true)
  })

  it('goes on live after the last recorded step, and records what it adds', async () => {
    const journal = memoryJournal()
    // The first run stops after one turn (its iteration budget); the second has room to finish.
    const turns = () => [{ content: [{ type: 'toolCall' as const, id: 'a', name: 'nothing', arguments: {} }] }, 'done']
    const first = await new Runtime({ provider: scripted(turns()), model: 'm', maxIterations: 1 }).exec('go', {
      toolset: 'none',
      journal,
      runId: 'r2',
    })
    expect(first.status).toBe('failed')
    expect((await journal.load('r2')).map((e) => e.key)).toEqual(['root#1:model', 'root#1:tool:a'])

    const live = scripted(['done'])
    const second = await new Runtime({ provider: live, model: 'm' }).exec('go', {
      toolset: 'none',
      journal,
      runId: 'r2',
    })
    expect(second.status).toBe('completed')
    expect(second.text).toBe('done')
    expect(live.requests).toHaveLength(1)
    expect(live.requests[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult'])
    expect((await journal.load('r2')).map((e) => e.key)).toEqual(['root#1:model', 'root#1:tool:a', 'root#2:model'])
  })
})
