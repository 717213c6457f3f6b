import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import { NestorError, Runtime, defineTool, type SchemaInput, type Tool } from '@nestor/core'
import { scripted } from '@nestor/providers'

function definitionError(parameters: SchemaInput): NestorError {
  try {
    defineTool({ name: 'book', description: 'Book a slot', parameters, execute: () => 'ok' })
  } catch (error) {
    if (NestorError.isInstance(error)) return error as NestorError
    throw error
  }
  throw new Error('expected defineTool to throw')
}

describe('tool parameters JSON Schema cannot express', () => {
  it.each([
    ['z.date() nested in an object', z.object({ slot: z.object({ when: z.date() }) }), 'slot.when: date'],
    ['z.bigint() inside an array', z.object({ ids: z.array(z.bigint()) }), 'ids[]: bigint'],
    ['z.map()', z.object({ tags: z.map(z.string(), z.string()) }), 'tags: map'],
    ['a function', z.object({ callback: z.function().optional() }), 'callback: function'],
    ['a symbol', z.object({ marker: z.symbol() }), 'marker: symbol'],
    ['z.set() in a record', z.object({ groups: z.record(z.string(), z.set(z.string())) }), 'groups.*: set'],
    ['a zod v3 z.date()', z3.object({ slot: z3.object({ when: z3.date() }) }), 'slot.when: date'],
    ['a zod v3 z.bigint() in an optional array', z3.object({ ids: z3.array(z3.bigint()).optional() }), 'ids[]: bigint'],
  ] as [string, SchemaInput, string][])(
    '%s fails invalid_options at defineTool, naming the field path',
    (_label, schema, path) => {
      const error = definitionError(schema)
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain('book')
      expect(error.message).toContain(path)
    },
  )

  it.each([
    ['z.string()', z.string(), '"string"'],
    ['z.array()', z.array(z.object({ a: z.string() })), '"array"'],
    ['a union of objects', z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]), 'union'],
    ['a zod v3 z.string()', z3.string(), '"string"'],
    ['raw JSON Schema of type string', { type: 'string' }, '"string"'],
  ] as [string, SchemaInput, string][])(
    'a non-object root (%s) fails invalid_options at defineTool',
    (_label, schema, got) => {
      const error = definitionError(schema)
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain('root must be an object')
      expect(error.message).toContain(got)
    },
  )

  it('a plain { spec, execute } tool with a non-object root fails invalid_options before any request', () => {
    const tool: Tool = {
      spec: { name: 'echo', description: 'Echo', parameters: { type: 'string' } },
      execute: () => '',
    }
    const runtime = new Runtime({ provider: scripted(['never']), model: 'm' })
    expect(() => runtime.exec('go', { tools: [tool] })).toThrow(/root must be an object/)
  })

  it('JSON-expressible schemas (strings with formats, enums, nested objects, optional fields) are still accepted', () => {
    const schema = z.object({
      when: z.iso.datetime(),
      kind: z.enum(['a', 'b']),
      who: z.object({ email: z.email().optional() }),
      n: z.number().int(),
    })
    expect(() => defineTool({ name: 'book', description: 'd', parameters: schema, execute: () => 'ok' })).not.toThrow()
  })
})
