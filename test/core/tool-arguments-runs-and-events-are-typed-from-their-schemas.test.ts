import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { defineTool, type ExecResult, type ExecRun, type AgentEvent, Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'

describe('types', () => {
  it('tool arguments are inferred from a zod schema', () => {
    defineTool({
      name: 'typed',
      description: 'd',
      parameters: z.object({ city: z.string(), days: z.number().optional(), unit: z.enum(['c', 'f']) }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined; unit: 'c' | 'f' }>()
        // @ts-expect-error a property the schema does not have
        void args.country
        return args.city.toUpperCase()
      },
    })
  })

  it('a run is both an async iterable of events and awaitable for the result', () => {
    const run = new Runtime({ provider: scripted(['x']), model: 'm' }).exec('go')
    expectTypeOf(run).toMatchTypeOf<AsyncIterable<AgentEvent>>()
    expectTypeOf(run).toMatchTypeOf<PromiseLike<ExecResult>>()
    expectTypeOf<Awaited<ExecRun>>().toEqualTypeOf<ExecResult>()
  })

  it('runtime.on narrows the event by type', () => {
    const runtime = new Runtime({ provider: scripted(['x']), model: 'm' })
    runtime.on('tool_end', (e) => {
      expectTypeOf(e.receipt.status).toBeString()
      expectTypeOf(e.durationMs).toBeNumber()
    })
  })
})
