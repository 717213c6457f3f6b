import { describe, expect, it } from 'vitest'
import { toGeminiParameters, toGeminiTools } from '@nestor/providers/gemini'

// Produced by z.toJSONSchema() of zod 4.6.7 (the version pinned in @nestor/providers) for
//   z.object({ email: z.string().email().describe('contact'), nickname: z.string().nullable(),
//     kind: z.literal('user'), mode: z.enum(['a','b']).default('a'),
//     count: z.number().int().min(1).multipleOf(2).optional(), tags: z.record(z.string(), z.number()),
//     when: z.iso.datetime(), either: z.union([z.string(), z.number()]), tree: Node }).describe('root')
// with Node recursive (children: z.array(Node)). Patterns are shortened.
const zodSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', pattern: '^[^@]+@[^@]+$', description: 'contact' },
    nickname: { type: ['string', 'null'] },
    kind: { type: 'string', const: 'user' },
    mode: { default: 'a', type: 'string', enum: ['a', 'b'] },
    count: { type: 'integer', minimum: 1, maximum: 9007199254740991, multipleOf: 2 },
    tags: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
    when: { type: 'string', format: 'date-time', pattern: '^\\d{4}-.*$' },
    either: { type: ['string', 'number'] },
    tree: { $ref: '#/$defs/__schema0' },
  },
  required: ['email', 'nickname', 'kind', 'mode', 'tags', 'when', 'either', 'tree'],
  additionalProperties: false,
  description: 'root',
  $defs: {
    __schema0: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/__schema0' } } },
      required: ['name', 'children'],
      additionalProperties: false,
    },
  },
}

/** Every keyword anywhere in a converted schema, to prove none outside the subset survives. */
function keywords(schema: unknown, out = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return out
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') for (const child of Object.values(value as object)) keywords(child, out)
    else {
      out.add(key)
      if (key === 'items') keywords(value, out)
      if (key === 'anyOf') for (const child of value as unknown[]) keywords(child, out)
    }
  }
  return out
}

const SUBSET = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'anyOf',
  'minimum',
  'maximum',
])

describe('tool schema conversion to the Gemini OpenAPI subset', () => {
  const converted = toGeminiParameters(zodSchema)!

  it('keeps no keyword Gemini rejects anywhere in a zod-produced schema', () => {
    const used = keywords(converted)
    for (const key of used) expect(SUBSET.has(key), `keyword ${key}`).toBe(true)
    expect(JSON.stringify(converted)).not.toMatch(
      /\$schema|\$ref|\$defs|additionalProperties|propertyNames|multipleOf|const|default|pattern/,
    )
  })

  it('turns a type union with null into nullable', () => {
    expect(converted.properties!.nickname).toEqual({ type: 'string', nullable: true })
  })

  it('turns const into a one-value enum', () => {
    expect(converted.properties!.kind).toEqual({ type: 'string', enum: ['user'] })
  })

  it('drops default but keeps the enum', () => {
    expect(converted.properties!.mode).toEqual({ type: 'string', enum: ['a', 'b'] })
  })

  it('keeps min/max and drops multipleOf', () => {
    expect(converted.properties!.count).toEqual({ type: 'integer', minimum: 1, maximum: 9007199254740991 })
  })

  it('keeps formats Gemini supports and drops the others', () => {
    expect(converted.properties!.when).toEqual({ type: 'string', format: 'date-time' })
    expect(converted.properties!.email).toEqual({ type: 'string', description: 'contact' })
  })

  it('spells a multi-type union as anyOf', () => {
    expect(converted.properties!.either).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] })
  })

  it('inlines $ref from $defs and cuts recursion at the second visit', () => {
    expect(converted.properties!.tree).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { type: 'object' } } },
      required: ['name', 'children'],
    })
  })

  it('keeps required, description and the root type', () => {
    expect(converted.type).toBe('object')
    expect(converted.description).toBe('root')
    expect(converted.required).toEqual(['email', 'nickname', 'kind', 'mode', 'tags', 'when', 'either', 'tree'])
  })

  it('turns a nullable object written as anyOf [object, null] into one nullable object', () => {
    const schema = {
      type: 'object',
      properties: {
        address: {
          anyOf: [
            {
              type: 'object',
              properties: { street: { type: 'string' } },
              required: ['street'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
          description: 'where',
        },
      },
    }
    expect(toGeminiParameters(schema)!.properties!.address).toEqual({
      type: 'object',
      properties: { street: { type: 'string' } },
      required: ['street'],
      nullable: true,
      description: 'where',
    })
  })

  it('merges allOf members and drops title and examples', () => {
    const schema = {
      title: 'Merged',
      allOf: [
        { type: 'object', properties: { a: { type: 'string', title: 'A', examples: ['x'] } }, required: ['a'] },
        { properties: { b: { type: 'boolean' } }, required: ['b'] },
      ],
    }
    expect(toGeminiParameters(schema)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'boolean' } },
      required: ['a', 'b'],
    })
  })

  it('drops a numeric enum Gemini cannot express, keeping the type', () => {
    const schema = { type: 'object', properties: { level: { enum: [1, 2, 3] }, flag: { const: true } } }
    expect(toGeminiParameters(schema)!.properties).toEqual({ level: { type: 'integer' }, flag: { type: 'boolean' } })
  })

  it('drops required names that are not properties', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'ghost'] }
    expect(toGeminiParameters(schema)!.required).toEqual(['a'])
  })

  it('omits parameters for a tool without arguments (Gemini rejects an empty OBJECT)', () => {
    const tools = toGeminiTools([
      {
        name: 'ping',
        description: 'Ping',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
      },
    ])
    expect(tools).toEqual([{ functionDeclarations: [{ name: 'ping', description: 'Ping' }] }])
  })
})
