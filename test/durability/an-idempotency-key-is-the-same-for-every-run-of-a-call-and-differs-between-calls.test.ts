import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, exec, memoryJournal, type RunState, type ToolContext } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

// What each body (and approval predicate) saw as ctx.idempotencyKey, per tool call id.
const recorder = () => {
  const seen: [string, string][] = []
  const note = (ctx: ToolContext) => seen.push([ctx.toolCallId, ctx.idempotencyKey])
  return { seen, note }
}

describe('ToolContext.idempotencyKey', () => {
  it('is the same for each retry of a call, and differs between two calls of one turn', async () => {
    const { seen, note } = recorder()
    let attempts = 0
    const pay = defineTool({
      name: 'pay',
      description: 'p',
      parameters: z.object({ amount: z.number() }),
      retries: 2,
      execute: (_args, ctx) => {
        note(ctx)
        if (ctx.toolCallId === 'p1' && ++attempts < 3) throw new Error('the answer was lost')
        return 'paid'
      },
    })
    const provider = scripted([
      calls({ name: 'pay', args: { amount: 1 }, id: 'p1' }, { name: 'pay', args: { amount: 2 }, id: 'p2' }),
      'done',
    ])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [pay] })
    expect(result.status).toBe('completed')
    const p1 = seen.filter(([id]) => id === 'p1').map(([, key]) => key)
    const p2 = seen.filter(([id]) => id === 'p2').map(([, key]) => key)
    expect(p1).toHaveLength(3)
    expect(new Set(p1).size).toBe(1)
    expect(p2).toHaveLength(1)
    expect(p2[0]).not.toBe(p1[0])
  })

  it('is the same when a journal replays a body that opened a child, and the same call id in another run has another key', async () => {
    const { seen, note } = recorder()
    const charge = defineTool({
      name: 'charge',
      description: 'c',
      parameters: z.object({}),
      execute: (_args, ctx) => (note(ctx), 'charged'),
    })
    // A body that opens a child runs again on replay; its child's leaf call must keep its key.
    const book = defineTool({
      name: 'book',
      description: 'b',
      parameters: z.object({}),
      execute: async () => (await exec('book it', { tools: [charge] })).text,
    })
    const turns = (request: { messages: { role: string }[] }) => {
      if (request.messages.some((m) => m.role === 'toolResult')) return 'done'
      const child = JSON.stringify(request.messages).includes('book it')
      return child ? calls({ name: 'charge', id: 'c1' }) : calls({ name: 'book', id: 'b1' })
    }
    const journal = memoryJournal()
    const runtime = new Runtime({ provider: scripted(turns), model: 'm' })
    await runtime.exec('trip', { tools: [book], journal, runId: 'run-a' })
    // A journal that lost the leaf result (the crash came first): the replay runs the charge again.
    const entries = (await journal.load('run-a')).filter((e) => !(e.kind === 'tool' && e.key.includes(':tool:c1')))
    const cut = memoryJournal()
    for (const entry of entries) await cut.append('run-a', entry)
    await runtime.exec('trip', { tools: [book], journal: cut, runId: 'run-a' })
    await runtime.exec('trip', { tools: [book], journal: memoryJournal(), runId: 'run-b' })
    expect(seen.map(([id]) => id)).toEqual(['c1', 'c1', 'c1'])
    const [a, replayed, b] = seen.map(([, key]) => key)
    expect(replayed).toBe(a)
    expect(b).not.toBe(a)
  })

  it('is the one the approval predicate saw when the body runs after a resume from JSON', async () => {
    const { seen, note } = recorder()
    const deploy = defineTool({
      name: 'deploy',
      description: 'd',
      parameters: z.object({}),
      needsApproval: (_args, ctx) => (note(ctx), true),
      execute: (_args, ctx) => (note(ctx), 'deployed'),
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'deploy', id: 'd1' }), 'done']), model: 'm' })
    const paused = await runtime.exec('go', { tools: [deploy] })
    expect(paused.status).toBe('paused')
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    const resumed = await runtime.resume(state, { approve: ['d1'] }, { tools: [deploy] })
    expect(resumed.status).toBe('completed')
    expect(seen).toHaveLength(2)
    expect(seen[1]).toEqual(seen[0])
  })
})
