import { describe, expect, it } from 'vitest'
import { quickCheck } from '../../packages/core/src/option-quick-check.js'
import { option, strictOptions } from '../../packages/core/src/option-schema.js'
import { zod } from '../../packages/core/src/zod-lazy.js'

// parseOptions first asks the quick check (only the given keys, the rules' own predicates) and
// runs zod only when it cannot vouch for an object. So the quick check must never accept what
// zod refuses; and it should accept the valid objects, or it saves nothing.

const schema = strictOptions(() => ({
  model: option.nonEmptyString(),
  limit: option.positiveInt().optional(),
  mode: option.oneOf(['a', 'b']).optional(),
  names: option.stringList().optional(),
  flag: option.boolean().optional(),
  // Not built with option.*: checked by its own zod schema.
  either: zod()
    .union([zod().literal('x'), zod().number().int()])
    .optional(),
  nested: zod().strictObject({ size: option.nonNegativeInt().optional() }).optional(),
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
  it('accepts an options object only when zod accepts it, and accepts every valid one of these', () => {
    let valid = 0
    for (const o of objects()) {
      const verdict = schema().safeParse(o).success
      const quick = quickCheck(schema(), o)
      if (quick) expect([o, verdict]).toEqual([o, true])
      // Everything here is a strict object of known rules, so no valid object needs zod.
      if (verdict) {
        expect([o, quick]).toEqual([o, true])
        valid++
      }
    }
    expect(valid).toBeGreaterThan(100)
  })

  it('leaves schemas it does not understand to zod', () => {
    const loose = zod().object({ a: option.string() })
    const refined = zod()
      .strictObject({ a: option.string().optional(), b: option.string().optional() })
      .refine((o) => !(o.a && o.b))
    expect(quickCheck(loose, { a: 'x' })).toBe(false)
    expect(quickCheck(refined, { a: 'x' })).toBe(false)
    expect(refined.safeParse({ a: 'x', b: 'y' }).success).toBe(false)
  })
})
