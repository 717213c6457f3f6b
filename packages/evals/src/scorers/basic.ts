import { NestorError } from '@nestor/core'
import { compileSchema, option, parseOptions, strictOptions } from '@nestor/core/integration-kit'
import type { SchemaInput } from '@nestor/core'
import type { Scorer } from '../types.js'
import { answerText, sameJson } from './text.js'

const textOptions = strictOptions(() => ({
  name: option.nonEmptyString().optional(),
  caseSensitive: option.boolean().optional(),
  trim: option.boolean().optional(),
}))
type TextOptions = { name?: string; caseSensitive?: boolean; trim?: boolean }

const fold = (text: string, o: TextOptions, sensitiveByDefault: boolean) => {
  const trimmed = o.trim === false ? text : text.trim()
  return (o.caseSensitive ?? sensitiveByDefault) ? trimmed : trimmed.toLowerCase()
}

/** 1 when the answer equals `expected` (text, trimmed; or the typed output, deeply), else 0. */
export function exact(options: TextOptions = {}): Scorer {
  parseOptions(textOptions, options, 'scorers.exact')
  return {
    name: options.name ?? 'exact',
    score: (c, result) => {
      if (typeof c.expected !== 'string') {
        const actual = result.output === undefined ? result.text : result.output
        return sameJson(actual, c.expected) ? 1 : { score: 0, reason: `expected ${JSON.stringify(c.expected)}` }
      }
      const ok = fold(answerText(result), options, true) === fold(c.expected, options, true)
      return ok ? 1 : { score: 0, reason: `expected exactly ${JSON.stringify(c.expected)}` }
    },
  }
}

/**
 * The share of the wanted strings the answer contains (case-insensitive by default): `needles`,
 * or the case's `expected` (a string or an array of strings).
 */
export function includes(needles?: string | string[], options: TextOptions = {}): Scorer {
  parseOptions(textOptions, options, 'scorers.includes')
  return {
    name: options.name ?? 'includes',
    score: (c, result) => {
      const wanted = needles ?? c.expected
      const list = typeof wanted === 'string' ? [wanted] : wanted
      if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === 'string'))
        throw new NestorError(
          'invalid_options',
          'scorers.includes: give strings, or cases whose expected is a string or strings',
        )
      const text = fold(answerText(result), options, false)
      const missing = list.filter((s) => !text.includes(fold(s, options, false)))
      const score = (list.length - missing.length) / list.length
      return missing.length === 0 ? 1 : { score, reason: `missing ${missing.map((s) => JSON.stringify(s)).join(', ')}` }
    },
  }
}

const nameOnly = strictOptions(() => ({ name: option.nonEmptyString().optional() }))

/** 1 when the answer matches `re`. */
export function regex(re: RegExp, options: { name?: string } = {}): Scorer {
  if (!(re instanceof RegExp)) throw new NestorError('invalid_options', 'scorers.regex: expected a RegExp')
  parseOptions(nameOnly, options, 'scorers.regex')
  return {
    name: options.name ?? 'regex',
    score: (_c, result) => {
      re.lastIndex = 0
      return re.test(answerText(result)) ? 1 : { score: 0, reason: `does not match ${String(re)}` }
    },
  }
}

/** 1 when the typed output (or the text parsed as JSON) passes `schema` (zod or JSON Schema); the issues otherwise. */
export function schema(s: SchemaInput, options: { name?: string } = {}): Scorer {
  parseOptions(nameOnly, options, 'scorers.schema')
  const compiled = compileSchema(s)
  return {
    name: options.name ?? 'schema',
    score: (_c, result) => {
      let value: unknown = result.output
      if (value === undefined) {
        try {
          value = JSON.parse(result.text)
        } catch {
          return { score: 0, reason: 'the answer is not JSON' }
        }
      }
      const checked = compiled.validate(value)
      return checked.ok ? 1 : { score: 0, reason: checked.issues.join('; ') }
    },
  }
}
