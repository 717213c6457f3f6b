import { invalidOption } from '../contract/errors.js'
import type { ExecInput, ExecOptions, RuntimeOptions } from '../contract/exec-types.js'
import type { SessionStore } from '../contract/session-types.js'
import type { Message, OutputSchema } from '../contract/types.js'
import { validateInput } from '../options/options.js'
import { choicesSchema } from '../schema/choices.js'
import { OutputGate } from '../schema/output.js'
import type { SchemaInput } from '../schema/schema.js'

// What an exec is asked for, read from its call: its input as messages, the typed output it wants,
// the session store it writes to.

/** The exec's input as messages; `invalid_options` for anything else. */
export function toMessages(input: ExecInput): Message[] {
  validateInput(input)
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  if (Array.isArray(input)) return input
  if (input && typeof input === 'object' && 'role' in input) return [input]
  throw invalidOption('input', 'a string, a Message or a Message[]', input)
}

/** The typed output an exec asks for: its `output` schema, or the decision schema of its `choices`. */
export function outputGate(options: ExecOptions<OutputSchema | undefined, string>): OutputGate | undefined {
  const retries = options.outputRetries ?? 2
  if (options.choices !== undefined) return new OutputGate(choicesSchema(options.choices), retries, 'choice')
  return options.output === undefined ? undefined : new OutputGate(options.output as SchemaInput, retries)
}

/** The runtime's `sessions` store; `invalid_options` when it has none. */
export function sessionStore(options: RuntimeOptions): SessionStore {
  if (!options.sessions)
    throw invalidOption('sessions', 'a session store on the runtime (new Runtime({ sessions }))', undefined)
  return options.sessions
}
