import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { callSignature, canonicalJson } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'
import { resultText, toolEnds, toolResults } from '../support/tool-results.js'

function setup(duplicateCalls?: 'reject' | 'allow') {
  let runs = 0
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up a record',
    parameters: z.object({ table: z.string(), id: z.number() }),
    execute: ({ table, id }) => {
      runs++
      return `${table}#${id}`
    },
  })
  const provider = scripted([
    calls({ name: 'lookup', args: { table: 'users', id: 1 }, id: 'first' }),
    // Same arguments, keys in another order: the same canonical call.
    calls({ name: 'lookup', args: { id: 1, table: 'users' }, id: 'again' }),
    'done',
  ])
  const runtime = new Runtime({ provider, model: 'm', ...(duplicateCalls && { duplicateCalls }) })
  return { runtime, lookup, runs: () => runs }
}

describe('duplicate calls', () => {
  it('by default a repeat of a call that already succeeded is not executed, is counted as duplicate_call and points to the earlier call', async () => {
    const { runtime, lookup, runs } = setup()
    const { events, result } = await collect(runtime.exec('go', { tools: [lookup] }))
    expect(result.status).toBe('completed')
    expect(runs()).toBe(1)
    expect(result.receipts.map((r) => [r.toolCallId, r.status])).toEqual([
      ['first', 'ok'],
      ['again', 'duplicate_call'],
    ])
    const duplicate = toolResults(result)[1]!
    expect(duplicate.isError).toBe(true)
    expect(resultText(duplicate)).toMatch(/duplicate call/)
    expect(resultText(duplicate)).toContain('first') // the earlier call's id
    expect(toolEnds(events).map((e) => e.receipt.status)).toEqual(['ok', 'duplicate_call'])
    expect(historyProblems(result.history)).toEqual([])
  })

  it("with duplicateCalls 'allow' the repeat runs again", async () => {
    const { runtime, lookup, runs } = setup('allow')
    const result = await runtime.exec('go', { tools: [lookup] })
    expect(runs()).toBe(2)
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'ok'])
  })

  it('a failed call is not a duplicate: the same arguments may be tried again', async () => {
    let attempts = 0
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails once',
      parameters: z.object({ n: z.number() }),
      execute: () => {
        if (++attempts === 1) throw new Error('first time fails')
        return 'ok now'
      },
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'flaky', args: { n: 1 } }), calls({ name: 'flaky', args: { n: 1 } }), 'done']),
      model: 'm',
    })
    const result = await runtime.exec('go', { tools: [flaky] })
    expect(result.receipts.map((r) => r.status)).toEqual(['tool_error', 'ok'])
  })

  it('the canonical signature ignores key order at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }))
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }))
    expect(callSignature('t', { y: 'x', x: 'y' })).toBe('t:{"x":"y","y":"x"}')
    expect(callSignature('t', { a: 1 })).not.toBe(callSignature('u', { a: 1 }))
  })
})
