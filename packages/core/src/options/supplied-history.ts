import { NestorError } from '../contract/errors.js'
import type { Message } from '../contract/types.js'

/**
 * The pairing rules of a supplied conversation (`history`, then the input): tool call ids unique
 * and non-empty, names non-empty, each call answered by exactly one result with its id before the
 * next assistant message, no result without a call. A provider would reject a broken pairing (or
 * worse, accept it); here it fails `invalid_options` before any request.
 */
export function checkSuppliedHistory(history: readonly Message[], input: readonly Message[]): void {
  const at = (i: number) => (i < history.length ? `history.${i}` : `input.${i - history.length}`)
  const fail = (where: string, why: string): never => {
    throw new NestorError('invalid_options', `invalid option ${where}: ${why}`)
  }
  const seen = new Set<string>()
  // Calls of the latest assistant message still without a result, with where each was made.
  let open = new Map<string, string>()
  const closeAll = (before: string) => {
    for (const [id, where] of open) fail(where, `tool call ${id} has no result before ${before}`)
  }
  const messages = [...history, ...input]
  for (const [i, message] of messages.entries()) {
    if (message.role === 'assistant') {
      closeAll(`the next assistant message (${at(i)})`)
      open = new Map()
      for (const block of message.content) {
        if (block.type !== 'toolCall') continue
        if (!block.id) fail(at(i), `a tool call (${block.name || 'no name'}) has an empty id`)
        if (!block.name) fail(at(i), `tool call ${block.id} has an empty name`)
        if (seen.has(block.id)) fail(at(i), `tool call id ${block.id} is used more than once`)
        seen.add(block.id)
        open.set(block.id, at(i))
      }
    } else if (message.role === 'toolResult') {
      const id = message.toolCallId
      if (!open.delete(id))
        fail(at(i), seen.has(id) ? `tool call ${id} has more than one result` : `result ${id} answers no tool call`)
    }
  }
  closeAll('the end of the conversation')
}
