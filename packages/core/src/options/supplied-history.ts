import { NestorError } from '../contract/errors.js'
import type { AssistantMessage, HistoryMessage, Message } from '../contract/types.js'

/**
 * A supplied message as the loop keeps it: a hand-written assistant message gets what a provider
 * would have filled in (types.ts HistoryMessage). A complete message is returned as it is.
 */
export function completeMessage(message: HistoryMessage): Message {
  if (message.role !== 'assistant') return message
  if (message.stopReason && message.usage && message.provider !== undefined && message.model !== undefined)
    return message as AssistantMessage
  const calls = Array.isArray(message.content) && message.content.some((part) => part?.type === 'toolCall')
  return {
    ...message,
    stopReason: message.stopReason ?? (calls ? 'toolUse' : 'stop'),
    usage: message.usage ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    provider: message.provider ?? '',
    model: message.model ?? '',
  }
}

/**
 * The pairing rules of a supplied conversation (`history`, then the input): tool call ids unique
 * and non-empty, names non-empty, each call answered by exactly one result with its id before the
 * next assistant message, no result without a call. A provider would reject a broken pairing (or
 * worse, accept it); here it fails `invalid_options` before any request.
 */
export function checkSuppliedHistory(history: readonly Message[], input: readonly Message[]): void {
  const problem = pairingProblem([...history, ...input])
  if (!problem) return
  const at = (i: number) => (i < history.length ? `history.${i}` : `input.${i - history.length}`)
  throw new NestorError('invalid_options', `invalid option ${at(problem.index)}: ${problem.why(at)}`)
}

/**
 * The first break of those rules in `messages`, or undefined: where it is, and why (worded with
 * `at`, which names a message by its index). Shared with compaction, whose custom strategies must
 * return a history that keeps them.
 */
export function pairingProblem(
  messages: readonly Message[],
): { index: number; why: (at: (i: number) => string) => string } | undefined {
  const seen = new Set<string>()
  // Calls of the latest assistant message still without a result, with the index it was made at.
  let open = new Map<string, number>()
  const unanswered = (before: (at: (i: number) => string) => string) => {
    const first = open.entries().next().value
    return (
      first && {
        index: first[1],
        why: (at: (i: number) => string) => `tool call ${first[0]} has no result before ${before(at)}`,
      }
    )
  }
  for (const [i, message] of messages.entries()) {
    if (message.role === 'assistant') {
      const left = unanswered((at) => `the next assistant message (${at(i)})`)
      if (left) return left
      open = new Map()
      for (const block of message.content) {
        if (block.type !== 'toolCall') continue
        const fail = (why: string) => ({ index: i, why: () => why })
        if (!block.id) return fail(`a tool call (${block.name || 'no name'}) has an empty id`)
        if (!block.name) return fail(`tool call ${block.id} has an empty name`)
        if (seen.has(block.id)) return fail(`tool call id ${block.id} is used more than once`)
        seen.add(block.id)
        open.set(block.id, i)
      }
    } else if (message.role === 'toolResult') {
      const id = message.toolCallId
      if (!open.delete(id))
        return {
          index: i,
          why: () => (seen.has(id) ? `tool call ${id} has more than one result` : `result ${id} answers no tool call`),
        }
    }
  }
  return unanswered(() => 'the end of the conversation')
}
