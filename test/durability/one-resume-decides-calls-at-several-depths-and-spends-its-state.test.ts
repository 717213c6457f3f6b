import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, exec, type RunState } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { historyProblems } from '../support/run.js'
import { asker, resultsIn } from './support/nested.js'

function setup() {
  const ran: string[] = []
  const guarded = (name: string) =>
    defineTool({
      name,
      description: name,
      parameters: z.object({}),
      needsApproval: true,
      execute: () => (ran.push(name), `${name} done`),
    })
  const deep = guarded('deep')
  const shallow = guarded('shallow')
  const open = defineTool({
    name: 'open',
    description: 'Opens a child',
    parameters: z.object({}),
    execute: async () => (await exec('child', { tools: [deep] })).text,
  })
  const provider = scripted((r: ModelRequest) => {
    const seen = resultsIn(r)
    if (asker(r) === 'child')
      return seen.length
        ? `child: ${seen.join()}`
        : { content: [{ type: 'toolCall', id: 'k1', name: 'deep', arguments: {} }] }
    if (seen.length) return `root: ${seen.join(' / ')}`
    return {
      content: [
        { type: 'toolCall', id: 'o1', name: 'open', arguments: {} },
        { type: 'toolCall', id: 's1', name: 'shallow', arguments: {} },
      ],
    }
  })
  return { ran, provider, tools: [open, shallow] }
}

describe('a whole-tree pause with calls waiting at two depths', () => {
  it('lists both with their depth, and one resume decides both', async () => {
    const { ran, provider, tools } = setup()
    const runtime = new Runtime({ provider, model: 'm' })
    const paused = await runtime.exec('go', { tools })
    expect(paused.status).toBe('paused')
    expect(paused.pending!.approvals.map((a) => [a.toolCallId, a.depth])).toEqual([
      ['k1', 1],
      ['s1', 0],
    ])
    const done = await runtime.resume(
      paused.pending!.state,
      { approve: ['k1'], reject: [{ toolCallId: 's1', reason: 'not now' }] },
      { tools },
    )
    expect(done.status).toBe('completed')
    expect(ran).toEqual(['deep'])
    expect(done.text).toBe('root: child: deep done / rejected: not now')
    expect(historyProblems(done.history)).toEqual([])
  })

  it('a resumed state is spent: a second resume fails invalid_state, and resume never changed it', async () => {
    const { provider, tools } = setup()
    const runtime = new Runtime({ provider, model: 'm' })
    const paused = await runtime.exec('go', { tools })
    const state: RunState = paused.pending!.state
    const before = JSON.stringify(state)
    await runtime.resume(state, { approve: ['k1', 's1'] }, { tools })
    expect(JSON.stringify(state)).toBe(before)
    expect(() => runtime.resume(state, { approve: ['k1', 's1'] }, { tools })).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    )
  })

  it('a decision for a call that is not waiting anywhere in the tree is refused', async () => {
    const { provider, tools } = setup()
    const runtime = new Runtime({ provider, model: 'm' })
    const paused = await runtime.exec('go', { tools })
    expect(() => runtime.resume(paused.pending!.state, { approve: ['nope'] }, { tools })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/nope is not waiting/) }),
    )
  })
})
