import { Runtime, type exec, type ExecResult } from '@nestor/core'
import { Agent } from '@nestor/agents'
import { scripted } from '@nestor/providers'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'

const runtime = new Runtime({ provider: scripted(['{"city":"Lisbon","days":2}']), model: 'm' })

describe('result.output types', () => {
  it('is the zod v4 schema output type, so output.city is a string and a wrong field is an error', async () => {
    const result = await runtime.exec('go', { output: z.object({ city: z.string(), days: z.number() }) })
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; days: number } | undefined>()
    if (result.output) {
      expectTypeOf(result.output.city).toBeString()
      // @ts-expect-error the schema has no field `country`
      void result.output.country
    }
  })

  it('is the zod v3 output type too', async () => {
    const result = await runtime.exec('go', { output: z3.object({ city: z3.string() }) })
    expectTypeOf(result.output).toEqualTypeOf<{ city: string } | undefined>()
  })

  it('is unknown for JSON Schema and undefined without output', async () => {
    const raw = await runtime.exec('go', { output: { type: 'object' } })
    expectTypeOf(raw.output).toEqualTypeOf<unknown>()
    const plain = await runtime.exec('go')
    expectTypeOf(plain.output).toEqualTypeOf<undefined>()
    expectTypeOf(plain).toMatchTypeOf<ExecResult>()
  })

  it('flows through the module-level exec() and Agent.exec()', () => {
    class A extends Agent {
      instructions = ''
    }
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is under test
    const schema = z.object({ n: z.number() })
    expectTypeOf<Awaited<ReturnType<typeof exec<typeof schema>>>['output']>().toEqualTypeOf<{ n: number } | undefined>()
    expectTypeOf<Awaited<ReturnType<A['exec']>>>().toMatchTypeOf<ExecResult>()
  })
})
