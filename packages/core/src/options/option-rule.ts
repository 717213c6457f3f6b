import type { z } from 'zod/v4'
import { zod } from '../base/zod-lazy.js'

// An option rule checks a value with a plain predicate, so the common path (options that are
// right) runs no schema library: zod is loaded only when a check fails, to word the error the
// same way every options error is worded (option-schema.ts). Each rule knows its zod twin.

export class OptionRule<T = unknown> {
  /** Carries the checked type for SameKeys and readers; never set. */
  declare readonly type?: T
  #zod: z.ZodType | undefined

  constructor(
    /** Completes "invalid option {key}: expected …, got …". */
    readonly expected: string,
    /** True exactly when zod's twin accepts the value (undefined included for an optional rule). */
    readonly test: (value: unknown) => boolean,
    readonly isOptional: boolean,
    private readonly build: () => z.ZodType,
  ) {}

  optional(): OptionRule<T | undefined> {
    const test = this.test
    return new OptionRule<T | undefined>(
      this.expected,
      (v) => v === undefined || test(v),
      true,
      () => this.zod().optional(),
    )
  }

  /** The zod schema of this rule, built (and zod loaded) at the first call. */
  zod(): z.ZodType {
    return (this.#zod ??= this.build())
  }
}

export type OptionShape = Record<string, OptionRule>

/** A strict object of rules: only the given keys are walked, each with its own predicate. */
export class OptionsSchema {
  readonly rules: ReadonlyMap<string, OptionRule>
  readonly required: readonly string[]
  #zod: z.ZodType | undefined

  constructor(readonly shape: OptionShape) {
    this.rules = new Map(Object.entries(shape))
    this.required = Object.keys(shape).filter((key) => !shape[key]!.isOptional)
  }

  /** True exactly when the strict zod object of the same rules accepts `value`. */
  accepts(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
    const record = value as Record<string, unknown>
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue
      const rule = this.rules.get(key)
      if (!rule || !rule.test(record[key])) return false
    }
    for (const key of this.required) if (record[key] === undefined) return false
    return true
  }

  zod(): z.ZodType {
    if (!this.#zod) {
      const shape: Record<string, z.ZodType> = {}
      for (const [key, rule] of this.rules) shape[key] = rule.zod()
      this.#zod = zod().strictObject(shape)
    }
    return this.#zod
  }
}
