import { describe, expect, it } from 'vitest'
import { option, parseOptions, strictOptions } from '../../packages/core/src/options/option-schema.js'
import { zod } from '../../packages/core/src/base/zod-lazy.js'

// parseOptions first asks the quick check (only the given keys, the rules' own predicates, no
// zod) and runs zod only when that check refuses, for the error's wording. So the quick check must
// accept exactly what the zod twin of the same rules accepts.

const schema = strictOptions(() => ({
  model: option.nonEmptyString(),
  limit: option.positiveInt().optional(),
  mode: option.oneOf(['a', 'b']).optional(),
  names: option.stringList().optional(),
  flag: option.boolean().optional(),
  // A rule only zod can say: checked by its own zod schema.
  either: option.zod(() => zod().union([zod().literal('x'), zod().number().int()])).optional(),
  nested: option.object({ size: option.nonNegativeInt().optional() }).optional(),
}))

const values: Record<string, unknown[]> = {
  model: ['m', '', 1, undefined, null],
  limit: [1, 0, 2.5, '3', undefined, null],
  mode: ['a', 'c', undefined],
  names: [['x'], [1], 'x', undefined],
  flag: [true, 'yes', undefined],
  either: ['x', 3, 3.5, 'y', undefined],
  nested: [{}, { size: 2 }, { size: -1 }, { other: 1 }, 'n', undefined],
  unknown: [1, undefined],
}

/** Every object made of one value per key (a key left out when its value is `undefined`, or set to it). */
function* objects(): Generator<Record<string, unknown>> {
  const keys = Object.keys(values)
  // One key varied at a time over a valid base, then pairs of keys: enough to meet each rule's
  // valid and invalid values next to given, missing and unknown keys.
  const base: Record<string, unknown> = { model: 'm' }
  yield { ...base }
  yield {}
  for (const a of keys)
    for (const va of values[a]!) {
      yield { ...base, [a]: va }
      const without = { ...base, [a]: va }
      if (va === undefined) delete without[a]
      yield without
      for (const b of keys) if (b !== a) for (const vb of values[b]!) yield { ...base, [a]: va, [b]: vb }
    }
}

describe('parseOptions’ quick check', () => {
  it('accepts an options object exactly when zod accepts it', () => {
    let valid = 0
    for (const o of objects()) {
      const verdict = schema().zod().safeParse(o).success
      expect([o, schema().accepts(o)]).toEqual([o, verdict])
      if (verdict) valid++
    }
    expect(valid).toBeGreaterThan(100)
  })

  it('words a refused object with zod: the nested key and the nearest valid one', () => {
    expect(() => parseOptions(schema, { model: 'm', nested: { sise: 1 } })).toThrow(
      /unknown option nested\.sise: did you mean nested\.size\?/,
    )
    expect(() => parseOptions(schema, { model: 'm', either: 'y' })).toThrow(/invalid option either/)
    expect(() => parseOptions(schema, { model: 'm', limit: 0 })).toThrow(
      /invalid option limit: expected a positive integer/,
    )
  })
})
