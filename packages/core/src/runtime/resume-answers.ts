import { NestorError } from '../contract/errors.js'
import type { RunState } from '../contract/run-state-schema.js'
import type { ResumeDecisions } from '../contract/types.js'
import { jsonSchemaValidator } from '../schema/json-schema-validator.js'

/**
 * The answers a resume gives, by the journal key of the question each answers (where the body that
 * asks again finds it). Every answer is checked before anything runs: an id the state does not
 * wait for is `invalid_state`, an answer its schema refuses `invalid_options` (with the issues),
 * and either leaves the state unspent. Questions left unanswered simply wait again.
 */
export function answersFor(state: RunState, given: ResumeDecisions): Map<string, unknown> {
  const answers = given.answers
  const keyed = new Map<string, unknown>()
  if (answers === undefined) return keyed
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers))
    throw new NestorError('invalid_state', 'invalid answers: expected { [input id]: value }')
  const waiting = new Map((state.inputs ?? []).map((input) => [input.id, input]))
  for (const [id, value] of Object.entries(answers)) {
    const input = waiting.get(id)
    if (!input) throw new NestorError('invalid_state', `invalid answers: input ${id} is not waiting in this state`)
    const checked = jsonSchemaValidator(input.schema)(value)
    if (!checked.ok)
      throw new NestorError(
        'invalid_options',
        `the answer to input ${id} does not match its schema:\n- ${checked.issues.join('\n- ')}`,
        { issues: checked.issues },
      )
    keyed.set(input.key, value)
  }
  return keyed
}
