import { Runtime } from '@nestor/core'
import { evaluate, scorers } from '@nestor/evals'
import { describe, expect, it } from 'vitest'
import { cityAgent, cityModel } from './support.js'

const data = [
  { id: 'lisbon', input: 'Plan Lisbon', expected: 'Lisbon' },
  { id: 'porto', input: 'Plan Porto', expected: 'Porto' },
]
// Each case: two scripted turns of 10 input and 5 output tokens.
const run = async (runtime: Runtime, prices?: Record<string, { input: number; output: number }>) => {
  const agent = cityAgent()
  return evaluate({
    name: 'cities',
    data,
    task: (input, ctx) => runtime.exec(input as string, { tools: agent.tools, signal: ctx.signal }),
    scorers: [scorers.includes()],
    ...(prices && { prices }),
  })
}

describe('eval report cost', () => {
  it('is what the runs priced their turns at, with no prices given to the eval', async () => {
    const runtime = new Runtime({
      provider: cityModel(),
      model: 'scripted-city',
      prices: { 'scripted:scripted-city': { input: 1000, output: 2000 } },
    })
    const report = await run(runtime)
    // Per case: 2 × (10 × $1000 + 5 × $2000) / 1e6 = $0.04.
    expect(report.cases.map((c) => c.cost)).toEqual([0.04, 0.04])
    expect(report.totals.cost).toBe(0.08)
  })

  it("the eval's own prices (keyed by model) win over the run's", async () => {
    const runtime = new Runtime({
      provider: cityModel(),
      model: 'scripted-city',
      prices: { 'scripted:scripted-city': { input: 1000, output: 2000 } },
    })
    const report = await run(runtime, { 'scripted-city': { input: 1, output: 2 } })
    // Per case: 2 × (10 × $1 + 5 × $2) / 1e6.
    expect(report.cases.map((c) => c.cost)).toEqual([0.00004, 0.00004])
  })

  it('is absent when a model used has no price anywhere', async () => {
    const report = await run(new Runtime({ provider: cityModel(), model: 'scripted-city' }))
    expect(report.cases.map((c) => c.cost)).toEqual([undefined, undefined])
    expect(report.totals.cost).toBeUndefined()
  })
})
