import { invalidOption } from '../contract/errors.js'
import type { Handoff, HandoffAgent, HandoffOptions, InputFilter } from '../contract/handoff-types.js'
import type { Message } from '../contract/types.js'

/** A handoff target with options: its name, what the model reads of it, the history it receives. */
export function handoff(agent: HandoffAgent, options: HandoffOptions = {}): Handoff {
  return { ...options, kind: 'handoff', agent }
}

/**
 * An `inputFilter` that keeps the latest `n` turns, a turn being a user message and everything
 * that answered it. Cutting before a user message never separates a tool call from its result.
 */
export function lastTurns(n: number): InputFilter {
  if (!Number.isInteger(n) || n < 1) throw invalidOption('lastTurns', 'an integer ≥ 1', n)
  return (history: Message[]) => {
    let seen = 0
    for (let i = history.length - 1; i >= 0; i--)
      if (history[i]?.role === 'user' && ++seen === n) return history.slice(i)
    return history
  }
}
