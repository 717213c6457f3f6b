import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

const HEX_ID = /^(exec|call)_([0-9a-f]{32})$/

/** The hex digits two ids share at the same places: about 2 of 32 for independent random ids. */
function samePlaces(a: string, b: string): number {
  let same = 0
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++
  return same
}

describe('ids that leave the process carry 128 random bits', () => {
  it('exec ids of consecutive execs are 32 random hex digits that tell nothing about each other', async () => {
    const runtime = new Runtime({ provider: scripted(Array.from({ length: 200 }, () => 'ok')), model: 'm' })
    const ids: string[] = []
    for (let i = 0; i < 200; i++) ids.push((await runtime.exec('hi')).execId)
    const digits = ids.map((id) => HEX_ID.exec(id)?.[2] ?? '')
    expect(digits.every((d) => d.length === 32)).toBe(true)
    expect(new Set(digits).size).toBe(200)
    // A per-process prefix plus a counter shares almost every place with the id before it.
    const shared = digits.slice(1).map((d, i) => samePlaces(d, digits[i] ?? ''))
    expect(Math.max(...shared)).toBeLessThan(12)
  })

  it('a tool call the provider sent without an id gets a random one, short enough for every provider', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echo', parameters: z.object({}), execute: () => 'e' })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'echo' }, { name: 'echo' }), 'done']),
      model: 'm',
    })
    const result = await runtime.exec('go', { tools: [echo] })
    const ids = result.receipts.map((receipt) => receipt.toolCallId)
    expect(ids).toHaveLength(2)
    for (const id of ids) {
      expect(id).toMatch(HEX_ID)
      expect(id.length).toBeLessThanOrEqual(40)
    }
    expect(samePlaces(ids[0] ?? '', ids[1] ?? '')).toBeLessThan(12)
  })

  it('a paused state is named by a random UUID', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pay',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'paid',
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'pay', id: 'p1' })]), model: 'm' })
    const result = await runtime.exec('pay', { tools: [pay] })
    expect(result.pending?.state.stateId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })
})
