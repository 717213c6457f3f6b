import { openai } from '@nestor/providers'
import { toStrictSchema } from '@nestor/providers/openai'
import { describe, expect, it } from 'vitest'
import { sse } from '../../support/wire-server.js'
import { body, collect, request, useWire } from '../../support/openai-wire.js'

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['c', 'f'] },
    days: { type: 'integer' },
    note: { type: ['string', 'null'] },
    place: {
      type: 'object',
      properties: {
        lat: { type: 'number' },
        tags: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } },
      },
      required: ['lat'],
    },
    ref: { $ref: '#/$defs/thing' },
  },
  required: ['city'],
  $defs: { thing: { type: 'object', properties: { id: { type: 'string' } } } },
}

describe('openai strict mode', () => {
  it('closes every object, requires every property and makes optional ones nullable', () => {
    expect(toStrictSchema(schema)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
        days: { type: ['integer', 'null'] },
        note: { type: ['string', 'null'] },
        place: {
          type: ['object', 'null'],
          properties: {
            lat: { type: 'number' },
            tags: {
              type: ['array', 'null'],
              items: {
                type: 'object',
                properties: { k: { type: ['string', 'null'] } },
                required: ['k'],
                additionalProperties: false,
              },
            },
          },
          required: ['lat', 'tags'],
          additionalProperties: false,
        },
        ref: { anyOf: [{ $ref: '#/$defs/thing' }, { type: 'null' }] },
      },
      required: ['city', 'unit', 'days', 'note', 'place', 'ref'],
      additionalProperties: false,
      $defs: {
        thing: {
          type: 'object',
          properties: { id: { type: ['string', 'null'] } },
          required: ['id'],
          additionalProperties: false,
        },
      },
    })
  })

  it('leaves the input schema untouched', () => {
    const before = JSON.stringify(schema)
    toStrictSchema(schema)
    expect(JSON.stringify(schema)).toBe(before)
  })

  describe('over the wire', () => {
    const wire = useWire()

    it('sends strict: true with the rewritten schema and drops the nulls the model sends for optional fields', async () => {
      const chunk = (delta: object, finish: string | null = null) => ({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4o',
        choices: [{ index: 0, delta, finish_reason: finish }],
      })
      const args = '{"city":"Oslo","unit":null,"days":null,"note":null,"place":{"lat":59.9,"tags":null},"ref":null}'
      wire.server.enqueue({
        body: sse([
          {
            data: chunk({
              tool_calls: [
                { index: 0, id: 'call_s', type: 'function', function: { name: 'forecast', arguments: args } },
              ],
            }),
          },
          { data: chunk({}, 'tool_calls') },
          '[DONE]',
        ]),
      })
      const tool = { name: 'forecast', description: 'Forecast', parameters: schema }
      const { final } = await collect(
        openai({ baseURL: wire.baseURL, apiKey: 'sk-test', strict: true }).stream(request({ tools: [tool] })),
      )
      expect(body(wire.server).tools).toEqual([
        {
          type: 'function',
          function: { name: 'forecast', description: 'Forecast', parameters: toStrictSchema(schema), strict: true },
        },
      ])
      // `note` allowed null in the original schema, so its null stays; the others were optional.
      expect(final.content).toEqual([
        {
          type: 'toolCall',
          id: 'call_s',
          name: 'forecast',
          arguments: { city: 'Oslo', note: null, place: { lat: 59.9 } },
        },
      ])
    })
  })
})
