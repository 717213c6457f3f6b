import { Agent, defineAgentTools, tool, type MethodArgs } from '@nestor/agents'
import type { ToolContext } from '@nestor/core'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'

// Type-level specification: `tsc -p test/tsconfig.json` (part of `pnpm test`) fails if an expected
// error below (marked ts-expect-error) disappears, or if a valid declaration stops compiling.
const searchArgs = z.object({ q: z.string(), limit: z.number().optional() })

class Typed extends Agent {
  instructions = 'typed'

  @tool({ description: 'ok', parameters: searchArgs })
  search(args: { q: string; limit?: number | undefined }, ctx: ToolContext) {
    return `${args.q}@${ctx.depth}`
  }

  // A method may take fewer fields than the schema gives (a wider parameter type).
  @tool({ description: 'ok', parameters: searchArgs })
  short({ q }: { q: string }) {
    return q
  }

  // @ts-expect-error: the schema gives q as a string, the method wants a number
  @tool({ description: 'wrong type', parameters: searchArgs })
  wrongType({ q }: { q: number }) {
    return q
  }

  // @ts-expect-error: the method needs a field the schema does not provide
  @tool({ description: 'missing field', parameters: z.object({ q: z.string() }) })
  missingField({ q, page }: { q: string; page: number }) {
    return `${q}${page}`
  }

  // A raw JSON Schema cannot be read by TypeScript: any signature is accepted, ajv checks at run time.
  @tool({ description: 'json', parameters: { type: 'object', properties: { n: { type: 'number' } } } })
  json({ n }: { n: number }) {
    return n
  }

  plain({ id }: { id: number }) {
    return id
  }
}

describe('tool method typing', () => {
  it('derives the argument type from the zod schema', () => {
    expectTypeOf<MethodArgs<typeof searchArgs>>().toEqualTypeOf<{ q: string; limit?: number | undefined }>()
    expectTypeOf<MethodArgs<{ type: 'object' }>>().toEqualTypeOf<never>()
    expectTypeOf<Parameters<Typed['search']>[0]>().toEqualTypeOf<MethodArgs<typeof searchArgs>>()
  })

  it('checks defineAgentTools entries against the method signatures too', () => {
    defineAgentTools(Typed, { plain: { description: 'ok', parameters: z.object({ id: z.number() }) } })
    // @ts-expect-error: the schema gives id as a string, plain() wants a number
    defineAgentTools(Typed, { plain: { description: 'wrong', parameters: z.object({ id: z.string() }) } })
  })
})
