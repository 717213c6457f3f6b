import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, memoryJournal, type ExecRun, type Journal } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

// An app's store or hook may never answer (a hung database, a lost network). abort() must end
// the run anyway, as it does for an approver who never answers: each wait below starts the abort
// itself, so the run is aborted exactly while it waits there. On code that does not race the
// wait, the run never settles and the test times out.
const never = () => new Promise<never>(() => {})
const echo = defineTool({ name: 'echo', description: 'echoes', parameters: z.object({}), execute: () => 'echoed' })
const doc = defineTool({
  name: 'fetch_doc',
  description: 'Fetches a document',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `doc ${n}: ${'text '.repeat(400)}`,
})
const docTurns = (n: number) => [
  ...Array.from({ length: n }, (_, i) => ({ ...calls({ name: 'fetch_doc', args: { n: i } }), usage: { input: 0 } })),
  'done',
]

/** Opens the run, then lets `hang` (called from inside the wait) abort it. */
function abortedWhileWaiting(open: (hang: () => Promise<never>) => ExecRun) {
  let run: ExecRun | undefined
  let waited = 0
  const hang = () => {
    waited++
    queueMicrotask(() => run?.abort())
    return never()
  }
  run = open(hang)
  return { run, waited: () => waited }
}

describe('abort() ends a run waiting on', () => {
  it("its journal's load", async () => {
    const { run, waited } = abortedWhileWaiting((hang) =>
      new Runtime({ provider: scripted(['x']), model: 'm' }).exec('go', {
        journal: { load: hang, append: async () => {} },
        runId: 'r',
      }),
    )
    const result = await run
    expect(waited()).toBe(1)
    expect(result.status).toBe('aborted')
    expect(result.iterationsUsed).toBe(0)
  })

  it("its journal's append, with every call of the turn answered", async () => {
    const journal: Journal = { load: async () => [], append: () => hang() }
    let hang: () => Promise<never> = never
    const { run, waited } = abortedWhileWaiting((h) => {
      hang = h
      return new Runtime({ provider: scripted([calls({ name: 'echo' }), 'x']), model: 'm' }).exec('go', {
        tools: [echo],
        journal,
        runId: 'r',
      })
    })
    const result = await run
    expect(waited()).toBe(1)
    expect(result.status).toBe('aborted')
    // The turn's call never ran: it is answered without running.
    expect(result.receipts.map((r) => r.status)).toEqual(['skipped'])
    expect(historyProblems(result.history)).toEqual([])
  })

  it("a fork's source journal (the recorded input, then its steps)", async () => {
    for (const input of [undefined, 'go']) {
      const source: Journal = { load: () => hang(), append: async () => {} }
      let hang: () => Promise<never> = never
      const { run, waited } = abortedWhileWaiting((h) => {
        hang = h
        return new Runtime({ provider: scripted(['x']), model: 'm' }).fork(
          { journal: source, runId: 'old', at: 'root#1:model', edit: { message: 'y' }, ...(input && { input }) },
          { runId: 'new', journal: memoryJournal() },
        )
      })
      const result = await run
      expect(waited()).toBe(1)
      expect(result.status).toBe('aborted')
    }
  })

  it('a custom context strategy', async () => {
    const { run, waited } = abortedWhileWaiting((hang) =>
      new Runtime({ provider: scripted(docTurns(6)), model: 'm' }).exec('go', {
        tools: [doc],
        context: { maxTokens: 1500, reserveTokens: 100, strategy: () => hang() },
      }),
    )
    const result = await run
    expect(waited()).toBe(1)
    expect(result.status).toBe('aborted')
    expect(historyProblems(result.history)).toEqual([])
  })

  it("the provider's capabilities()", async () => {
    const { run, waited } = abortedWhileWaiting((hang) =>
      new Runtime({ provider: Object.assign(scripted(['x']), { capabilities: hang }), model: 'm' }).exec('go', {
        context: { strategy: 'truncate' },
      }),
    )
    const result = await run
    expect(waited()).toBe(1)
    expect(result.status).toBe('aborted')
    expect(result.iterationsUsed).toBe(0)
  })
})
