import type { Message } from '../contract/types.js'
import { messageTokens } from './estimate.js'

/** One compaction as data: `history[from, to)` became `replacement`. What the journal keeps. */
export type Compaction = { from: number; to: number; replacement: Message[] }

/**
 * The messages kept whole at the front: up to and including the first user message (the task).
 * Cutting it would leave the model without its goal; the system prompt is not in the history.
 */
export function headEnd(history: readonly Message[]): number {
  const first = history.findIndex((m) => m.role === 'user')
  return first < 0 ? 0 : first + 1
}

/**
 * Where the kept tail starts when the oldest turns go: the first boundary after the head whose
 * tail fits `room`, else the last boundary (only the latest turn is kept). A boundary is a message
 * that is not a tool result, so a call is never parted from its results, and no later than the
 * last assistant message, so the latest turn stays. Undefined when there is nothing to cut.
 */
export function cutIndex(history: readonly Message[], head: number, room: number): number | undefined {
  const last = history.findLastIndex((m) => m.role === 'assistant')
  let tail = 0
  for (let i = history.length - 1; i >= head; i--) tail += messageTokens(history[i] as Message)
  let best: number | undefined
  for (let i = head; i <= last; i++) {
    const message = history[i] as Message
    if (i > head && message.role !== 'toolResult') {
      best = i
      if (tail <= room) return i
    }
    tail -= messageTokens(message)
  }
  return best
}

/** Applies a compaction in place (requests hold the history array); returns the new start index. */
export function applyCompaction(history: Message[], startIndex: number, { from, to, replacement }: Compaction): number {
  history.splice(from, to - from, ...replacement)
  if (to <= startIndex) return startIndex - (to - from) + replacement.length
  if (from < startIndex) return from + replacement.length
  return startIndex
}

/** What a custom strategy changed, as one replaced range (the common front and back stay). */
export function diffOf(before: readonly Message[], after: readonly Message[]): Compaction {
  let from = 0
  while (from < before.length && from < after.length && before[from] === after[from]) from++
  let back = 0
  while (
    back < before.length - from &&
    back < after.length - from &&
    before[before.length - 1 - back] === after[after.length - 1 - back]
  )
    back++
  return { from, to: before.length - back, replacement: after.slice(from, after.length - back) }
}

/**
 * The cut turns as a plain transcript for the summarizer. Longer than `maxChars`, it keeps its
 * first entry (an earlier summary, when there was a compaction before) and its newest part.
 */
export function transcriptOf(messages: readonly Message[], maxChars: number): string {
  const lines: string[] = []
  for (const message of messages) {
    if (message.role === 'user') lines.push(`User: ${plain(message.content)}`)
    else if (message.role === 'toolResult')
      lines.push(`Tool ${message.toolName} ${message.isError ? 'failed' : 'returned'}: ${plain(message.content)}`)
    else
      for (const block of message.content) {
        if (block.type === 'text') lines.push(`Assistant: ${block.text}`)
        else if (block.type === 'toolCall')
          lines.push(`Assistant called ${block.name}(${JSON.stringify(block.arguments)})`)
      }
  }
  const text = lines.join('\n')
  if (text.length <= maxChars) return text
  const first = (lines[0] ?? '').slice(0, Math.floor(maxChars / 3))
  const rest = maxChars - first.length
  return `${first}\n(… part omitted …)\n${text.slice(text.length - rest)}`
}

function plain(content: Message['content']): string {
  if (typeof content === 'string') return content
  return content
    .map((part) => {
      if (part.type === 'text') return part.text
      if (part.type === 'resource') return part.resource.text ?? `[resource ${part.resource.uri}]`
      if (part.type === 'resource_link') return `[link ${part.uri}]`
      if (part.type === 'toolCall' || part.type === 'thinking') return ''
      return `[${part.type}]`
    })
    .join(' ')
}
