import { describe, expect, it } from 'vitest'
import { Runtime, defineTool, exec, type JournalEntry, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
// @ts-expect-error a plain .mjs fixture shared with the spawned process
import { tree } from './fixtures/nested-tree.mjs'

type Tree = { provider: ReturnType<typeof scripted>; tools: never[]; ran: string[] }

describe('the journal of a whole-tree pause', () => {
  it('signs the journal with the rest: a changed entry is refused with invalid_state, the signed one resumes', async () => {
    const here = (tree as (deps: unknown) => Tree)({ defineTool, exec, scripted })
    const runtime = new Runtime({ provider: here.provider, model: 'm', stateSecret: 'journal-secret' })
    const paused = await runtime.exec('ship it', { tools: here.tools })
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    expect(state.journal?.entries?.length).toBeGreaterThan(0)

    // The child's recorded turn now asks to deploy somewhere else.
    const tampered = structuredClone(state)
    const turn = tampered.journal!.entries!.find((e: JournalEntry) => e.key === 'root/r1:0#1:model')!
    ;(turn.message as { content: { arguments: unknown }[] }).content[0]!.arguments = { service: 'prod' }
    expect(() => runtime.resume(tampered, { approve: ['d1'] }, { tools: here.tools })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/signature does not match/) }),
    )
    expect(here.ran).toEqual([])

    const done = await runtime.resume(state, { approve: ['d1'] }, { tools: here.tools })
    expect(done.status).toBe('completed')
    expect(here.ran).toEqual(['api'])
  })

  it('an unsigned state whose journal holds a malformed entry is refused invalid_state naming the key, nothing run', async () => {
    const here = (tree as (deps: unknown) => Tree)({ defineTool, exec, scripted })
    const runtime = new Runtime({ provider: here.provider, model: 'm' })
    const paused = await runtime.exec('ship it', { tools: here.tools })
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    const turn = state.journal!.entries!.find((e: JournalEntry) => e.key === 'root/r1:0#1:model')!
    ;(turn.message as { content: unknown }).content = { type: 'toolCall', id: 'd1' }
    expect(() => runtime.resume(state, { approve: ['d1'] }, { tools: here.tools })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringContaining('root/r1:0#1:model') }),
    )
    expect(here.ran).toEqual([])
  })
})
