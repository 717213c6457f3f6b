import { invalidOption } from '../contract/errors.js'
import type { JSONSchema } from '../contract/types.js'

/** `exec({ choices })`: names in a list, or a record of name → what choosing it means. */
export type ChoicesInput = readonly string[] | Readonly<Record<string, string>>

/** The names of `choices`, after checking them; `invalid_options` naming `choices` otherwise. */
export function choiceNames(choices: unknown): string[] {
  const listed = Array.isArray(choices)
  if (!listed && (typeof choices !== 'object' || choices === null))
    throw invalidOption('choices', 'an array of names or a record of name → description', choices)
  const names: unknown[] = listed ? choices : Object.keys(choices)
  if (names.length === 0) throw invalidOption('choices', 'at least one choice', choices)
  const bad = names.find((name) => typeof name !== 'string' || name === '')
  if (bad !== undefined) throw invalidOption('choices', 'names that are non-empty strings', bad)
  const seen = new Set<unknown>()
  for (const name of names) {
    if (seen.has(name)) throw invalidOption('choices', 'distinct names', name)
    seen.add(name)
  }
  if (!listed) {
    const record = choices as Record<string, unknown>
    const key = Object.keys(record).find((k) => typeof record[k] !== 'string')
    if (key !== undefined) throw invalidOption(`choices.${key}`, 'a description (a string)', record[key])
  }
  return names as string[]
}

/**
 * The typed-output schema a decision is asked with: `reason` first, so the model explains before
 * it commits, and `choice` an enum of the names. Every property required and the object closed,
 * so OpenAI takes it in strict mode and Anthropic as is.
 */
export function choicesSchema(choices: ChoicesInput): JSONSchema {
  const names = choiceNames(choices)
  const record = Array.isArray(choices) ? undefined : (choices as Readonly<Record<string, string>>)
  const description = record
    ? `One of:\n${names.map((name) => `- ${name}: ${record[name]}`).join('\n')}`
    : `One of: ${names.join(', ')}`
  return {
    type: 'object',
    properties: {
      reason: { type: 'string', description: 'Why this choice, in one or two sentences' },
      choice: { type: 'string', enum: names, description },
    },
    required: ['reason', 'choice'],
    additionalProperties: false,
  }
}
