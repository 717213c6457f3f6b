import { Runtime } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { memoryTracing } from '../support/memory-tracing.js'

describe('otel: cost on spans', () => {
  it('a chat span has the cache tokens under the GenAI names and its turn’s dollars; the agent span the exec’s and the tree’s', async () => {
    const usage = { input: 100, output: 20, cacheRead: 300, cacheWrite: 40, total: 460 }
    const provider = scripted([{ content: [{ type: 'text', text: 'hi' }], usage }])
    const runtime = new Runtime({
      provider,
      model: 'm',
      prices: { 'scripted:m': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2.5 } },
    })
    const tracing = memoryTracing()
    const stop = instrument(runtime, { tracer: tracing.tracer })
    await runtime.exec('go')
    stop()
    // By hand: 100×2 + 20×8 + 300×0.5 + 40×2.5 = 610 dollars per million.
    const dollars = 610 / 1e6
    const chat = tracing.spans().find((s) => s.name.startsWith('chat'))
    const agent = tracing.spans().find((s) => s.name.startsWith('invoke_agent'))
    expect(chat?.attributes).toMatchObject({
      'gen_ai.usage.cache_read.input_tokens': 300,
      'gen_ai.usage.cache_creation.input_tokens': 40,
    })
    expect(chat?.attributes['nestor.usage.cost_usd']).toBeCloseTo(dollars, 12)
    expect(agent?.attributes['nestor.usage.cost_usd']).toBeCloseTo(dollars, 12)
    expect(agent?.attributes['nestor.usage.total_cost_usd']).toBeCloseTo(dollars, 12)
  })

  it('an unpriced turn has no cost attribute (never a guess)', async () => {
    const runtime = new Runtime({ provider: scripted(['hi']), model: 'm' })
    const tracing = memoryTracing()
    const stop = instrument(runtime, { tracer: tracing.tracer })
    await runtime.exec('go')
    stop()
    for (const span of tracing.spans()) expect(span.attributes['nestor.usage.cost_usd']).toBeUndefined()
  })
})
