import { expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, memoryJournal, type Journal } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'

// docs/durability.md, "the journal's store down": a journal whose append or load rejects.

const answered = (r: ModelRequest) => r.messages.some((m) => m.role === 'toolResult')
const script = () =>
  scripted((r: ModelRequest) =>
    answered(r) ? 'charged' : { content: [{ type: 'toolCall', id: 'c1', name: 'charge', arguments: {} }] },
  )

/** A memory journal whose store goes down after `appends` appends succeeded. */
function failingAfter(appends: number): Journal & { store: Journal; down: boolean } {
  const store = memoryJournal()
  let left = appends
  const journal = {
    store,
    down: false,
    load: (runId: string) => store.load(runId),
    async append(runId: string, entry: Parameters<Journal['append']>[1]) {
      if (left-- <= 0) {
        journal.down = true
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432')
      }
      await store.append(runId, entry)
    },
  }
  return journal
}

it('an append that rejects fails the exec with hook_error naming the journal; the unrecorded step runs again on the next run, the recorded one does not', async () => {
  let bodies = 0
  const charge = defineTool({
    name: 'charge',
    description: 'Charge',
    parameters: z.object({}),
    execute: () => `charge ${++bodies}`,
  })
  const provider = script()
  const runtime = new Runtime({ provider, model: 'm' })
  // The model turn is recorded; the store goes down when the tool's result is appended.
  const journal = failingAfter(1)
  const first = await runtime.exec('go', { tools: [charge], journal, runId: 'pay-1' })
  expect(journal.down).toBe(true)
  expect(first.status).toBe('failed')
  expect(first.error).toMatchObject({ code: 'hook_error', message: expect.stringContaining("journal's append failed") })
  expect(first.error?.message).toContain('ECONNREFUSED')
  // Nothing after the unrecorded step: no further model call, and the run is not claimed completed.
  expect(provider.requests).toHaveLength(1)
  expect((await journal.store.load('pay-1')).map((e) => e.kind)).toEqual(['model'])

  // The store is back: the recorded turn replays (no model call for it); the unrecorded tool runs again.
  const again = await runtime.exec('go', { tools: [charge], journal: journal.store, runId: 'pay-1' })
  expect(again.status).toBe('completed')
  expect(provider.requests).toHaveLength(2)
  expect(bodies).toBe(2)
})

it('a load that rejects fails the exec with hook_error naming the journal before any model call', async () => {
  const provider = script()
  const journal: Journal = {
    load: async () => {
      throw new Error('connection terminated')
    },
    append: async () => undefined,
  }
  const result = await new Runtime({ provider, model: 'm' }).exec('go', { toolset: 'none', journal, runId: 'r' })
  expect(result.status).toBe('failed')
  expect(result.error).toMatchObject({ code: 'hook_error', message: expect.stringContaining("journal's load failed") })
  expect(provider.requests).toHaveLength(0)
})
