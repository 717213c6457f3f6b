import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import { NestorError, Runtime, defineTool, project, type JSONSchema } from '@nestor/core'
import { scripted } from '@nestor/providers'

const record = { id: 'u1', email: 'a@b.c', password: 'hunter2', profile: { plan: 'pro', secret: 's' } }

describe('project(schema, payload)', () => {
  it('keeps the declared top-level properties of a closed zod object (nested values whole)', () => {
    const schema = z.strictObject({ id: z.string(), profile: z.object({ plan: z.string() }) })
    expect(project(schema, record)).toEqual({ id: 'u1', profile: { plan: 'pro', secret: 's' } })
  })

  it('treats a zod v3 object as the schema layer does: strip and strict objects are closed, passthrough open', () => {
    expect(project(z3.object({ id: z3.string() }), record)).toEqual({ id: 'u1' })
    expect(project(z3.object({ id: z3.string() }).strict(), record)).toEqual({ id: 'u1' })
    expect(project(z3.object({ id: z3.string() }).passthrough(), record)).toBe(record)
  })

  it('keeps the declared top-level properties of a raw JSON Schema with additionalProperties: false', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string' }, email: { type: 'string' }, missing: { type: 'string' } },
      additionalProperties: false,
    }
    expect(project(schema, record)).toEqual({ id: 'u1', email: 'a@b.c' })
  })

  it('gives an open schema the payload whole (zod object, loose object, JSON Schema without the flag)', () => {
    for (const schema of [
      z.object({ id: z.string() }),
      z.looseObject({ id: z.string() }),
      { type: 'object', properties: { id: { type: 'string' } } },
      { type: 'object', properties: { id: {} }, additionalProperties: false, patternProperties: { '^x': {} } },
    ])
      expect(project(schema, record)).toBe(record)
  })

  it('keeps a declared __proto__ key as an own key, never as the prototype of the result', () => {
    // Parsed, as a schema from a file or an MCP server is: a literal's __proto__ would set a prototype.
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object"},"id":{"type":"string"}},"additionalProperties":false}',
    ) as JSONSchema
    // As it arrives over the wire: JSON.parse makes __proto__ an own key of the payload.
    const payload = JSON.parse('{"__proto__": {"isAdmin": true}, "id": "u1", "extra": 1}') as Record<string, unknown>
    const kept = project(schema, payload)
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype)
    expect((kept as { isAdmin?: unknown }).isAdmin).toBeUndefined()
    expect(Object.getOwnPropertyDescriptor(kept, '__proto__')?.value).toEqual({ isAdmin: true })
    expect(Object.keys(kept)).toEqual(['__proto__', 'id'])
  })

  it('gives a schema that is not an object schema the payload whole', () => {
    expect(project(z.string(), 'text')).toBe('text')
    expect(project({ type: 'array' }, [1, 2])).toEqual([1, 2])
  })

  it('a non-object payload for an object schema is invalid_options', () => {
    const schema = z.strictObject({ id: z.string() })
    for (const payload of [null, [record], 'u1', 42]) {
      let thrown: unknown
      try {
        project(schema, payload)
      } catch (error) {
        thrown = error
      }
      expect(NestorError.isInstance(thrown) && thrown.code).toBe('invalid_options')
      expect((thrown as Error).message).toMatch(/project: the schema is an object schema, but the payload is/)
    }
  })
})

describe('runBatch(plan, { project: true })', () => {
  const seen: unknown[] = []
  const closed = defineTool({
    name: 'notify',
    description: 'Notifies a user',
    parameters: z.strictObject({ id: z.string(), email: z.string() }),
    strictArguments: true,
    execute: (args) => {
      seen.push(args)
      return 'sent'
    },
  })
  const open = defineTool({
    name: 'audit',
    description: 'Audits a record',
    parameters: { type: 'object', properties: { id: { type: 'string' } } },
    execute: (args) => {
      seen.push(args)
      return 'logged'
    },
  })
  const runtime = () => new Runtime({ provider: scripted([]), model: 'm' })

  it("cuts each call's arguments to its tool's declared parameters; an open tool gets them whole", async () => {
    seen.length = 0
    const plan = [
      { tool: 'notify', args: record, callKey: 'n' },
      { tool: 'audit', args: record, callKey: 'a' },
    ]
    const out = await runtime().runBatch(plan, { tools: [closed, open], project: true })
    expect(out.receipts.map((r) => r.status)).toEqual(['ok', 'ok'])
    expect(seen).toEqual([{ id: 'u1', email: 'a@b.c' }, record])
  })

  it('without project, the same plan is rejected before anything runs (the closed tool refuses the extra keys)', () => {
    seen.length = 0
    expect(() => runtime().runBatch([{ tool: 'notify', args: record }], { tools: [closed] })).toThrow(
      /invalid batch plan, nothing was run/,
    )
    expect(seen).toEqual([])
  })

  it('applies to parallel lanes too', async () => {
    seen.length = 0
    const lanes = [{ itemKey: 'u1', calls: [{ callKey: 'n', tool: 'notify', args: record }] }]
    const out = await runtime().runParallelBatch(lanes, { tools: [closed], maxConcurrency: 1, project: true })
    expect(out.receipts[0]?.status).toBe('ok')
    expect(seen).toEqual([{ id: 'u1', email: 'a@b.c' }])
  })

  it('a call whose arguments are not an object is a plan problem naming the call', () => {
    const plan = [{ tool: 'notify', args: ['u1'] as never, callKey: 'bad' }]
    expect(() => runtime().runBatch(plan, { tools: [closed], project: true })).toThrow(
      /invalid batch plan, nothing was run:\n- call bad: project: the schema is an object schema, but the payload is an array/,
    )
  })

  it('a project option that is not a boolean is invalid_options naming it', () => {
    expect(() => runtime().runBatch([], { project: 'yes' as never })).toThrow(
      /invalid option project: expected a boolean/,
    )
    expect(() => runtime().runParallelBatch([], { maxConcurrency: 1, project: 1 as never })).toThrow(
      /invalid option project/,
    )
  })
})
