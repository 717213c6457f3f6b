import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, exec } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { historyProblems } from '../support/run.js'

// The root delegates ten times; each delegate body opens a child exec whose one tool needs
// approval only on the tenth delegation. The paused state is what memory kept of the run.
const provider = scripted((request) => {
  const results = request.messages.filter((m) => m.role === 'toolResult').length
  if (request.system === 'child')
    return results === 0
      ? {
          content: [
            {
              type: 'toolCall',
              name: 'act',
              arguments: { n: Number(JSON.stringify(request.messages).match(/task (\d+)/)?.[1]) },
            },
          ],
        }
      : 'child done'
  return results < 10
    ? { content: [{ type: 'toolCall', name: 'delegate', arguments: { n: results + 1 } }] }
    : 'all done'
})
const act = defineTool({
  name: 'act',
  description: 'Acts',
  parameters: z.object({ n: z.number() }),
  needsApproval: ({ n }) => n === 10,
  execute: ({ n }) => `acted ${n} ${'x'.repeat(2000)}`,
})
const delegate = defineTool({
  name: 'delegate',
  description: 'Delegates one task to a child',
  parameters: z.object({ n: z.number() }),
  execute: async ({ n }) => (await exec(`task ${n}`, { system: 'child', tools: [act] })).text,
})

describe('the in-memory journal of a tree without a journal', () => {
  it("keeps neither the root's own steps nor its finished calls' children: only the paused call's", async () => {
    const runtime = new Runtime({ provider, model: 'm' })
    const paused = await runtime.exec('go', { tools: [delegate] })
    expect(paused.status).toBe('paused')
    const state = paused.pending!.state
    const keys = (state.journal?.entries ?? []).map((e) => e.key)
    const pausedCall = paused.history.findLast((m) => m.role === 'assistant')
    const callId =
      pausedCall?.role === 'assistant' && pausedCall.content[0]?.type === 'toolCall' ? pausedCall.content[0].id : ''
    expect(keys.length).toBeGreaterThan(0)
    expect(keys.every((k) => k.startsWith(`root/${callId}:`))).toBe(true)

    // And the resume still replays the paused child without asking the model again for its turn.
    const before = provider.requests.length
    const resumed = await runtime.resume(
      JSON.parse(JSON.stringify(state)),
      { approve: [paused.pending!.approvals[0]!.toolCallId] },
      { tools: [delegate] },
    )
    expect(resumed.status).toBe('completed')
    expect(resumed.text).toBe('all done')
    // The child's recorded first turn replays: only its answer and the root's last turn are asked.
    expect(provider.requests.length - before).toBe(2)
    expect(historyProblems(resumed.history)).toEqual([])
  })
})
