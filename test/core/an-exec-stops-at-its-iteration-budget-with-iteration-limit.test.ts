import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

const ping = defineTool({
  name: 'ping',
  description: 'Ping',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `pong ${n}`,
})
/** A model that calls ping forever, each time with new arguments. */
const forever = () => scripted((_req, i) => calls({ name: 'ping', args: { n: i } }))

describe('iteration budget', () => {
  it('defaults to 20 model calls and fails iteration_limit when the model still wants tools', async () => {
    const provider = forever()
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [ping] })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('iteration_limit')
    expect(result.error?.message).toContain('iteration limit')
    expect(result.iterationsUsed).toBe(20)
    expect(result.iterationBudget).toBe(20)
    expect(provider.requests).toHaveLength(20)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a final answer on the last allowed iteration is within budget', async () => {
    const provider = scripted([
      calls({ name: 'ping', args: { n: 1 } }),
      calls({ name: 'ping', args: { n: 2 } }),
      'done',
    ])
    const result = await new Runtime({ provider, model: 'm', maxIterations: 3 }).exec('go', { tools: [ping] })
    expect(result.status).toBe('completed')
    expect(result.iterationsUsed).toBe(3)
  })

  it('tool calls on the last allowed iteration are a breach', async () => {
    const provider = forever()
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [ping], maxIterations: 2 })
    expect(result.error?.code).toBe('iteration_limit')
    expect(result.iterationsUsed).toBe(2)
    expect(provider.requests).toHaveLength(2)
  })

  it('exec maxIterations overrides the runtime default, and Infinity is accepted', async () => {
    const result = await new Runtime({ provider: scripted(['ok']), model: 'm', maxIterations: Infinity }).exec('go')
    expect(result.iterationBudget).toBe(Infinity)
    expect(result.status).toBe('completed')
  })

  it.each([0, -1, 1.5, 10_001, NaN, '3'])(
    'maxIterations %s throws invalid_options synchronously before any request',
    (bad) => {
      const provider = scripted(['never'])
      const runtime = new Runtime({ provider, model: 'm' })
      let thrown: unknown
      try {
        void runtime.exec('go', { maxIterations: bad as number })
      } catch (error) {
        thrown = error
      }
      expect(NestorError.isInstance(thrown)).toBe(true)
      expect((thrown as NestorError).code).toBe('invalid_options')
      expect((thrown as NestorError).message).toMatch(/maxIterations.*1\.\.10000/)
      expect(() => new Runtime({ provider, model: 'm', maxIterations: bad as number })).toThrow(/maxIterations/)
      expect(provider.requests).toHaveLength(0)
    },
  )

  it('every result carries the budget fields, also when no model call was made', async () => {
    const controller = new AbortController()
    controller.abort()
    const result = await new Runtime({ provider: scripted(['x']), model: 'm', maxIterations: 7 }).exec('go', {
      signal: controller.signal,
    })
    expect(result.status).toBe('aborted')
    expect(result.iterationsUsed).toBe(0)
    expect(result.iterationBudget).toBe(7)
  })
})
