import type { Message } from '@nestor/core'

/**
 * How an adapter converts a history, as consecutive groups of messages. A group is a run whose
 * wire form is built together (Anthropic merges same-role turns, Chat and Gemini gather a run of
 * tool results); a message that starts a new group never changes what the groups before it gave.
 */
export type HistoryConverter<Item> = {
  /** Throws for a message the provider cannot take. Given only messages not converted before. */
  check: (messages: readonly Message[], from: number, variant: string) => void
  /** Whether `next` continues the group `previous` is in. Answering true too often is only slower. */
  joins: (previous: Message, next: Message, variant: string) => boolean
  /** Appends the items of one group, `messages[from, to)`, to `out`. */
  convert: (messages: readonly Message[], from: number, to: number, variant: string, out: Item[]) => void
}

/** The last conversion of the histories that start with one message. */
type Entry<Item> = {
  /** The converted history: our own copy of the caller's array (which may change after we return). */
  messages: Message[]
  items: Item[]
  /** Where each group starts, in `messages` and in `items`. */
  groupStarts: number[]
  itemStarts: number[]
}

/**
 * Converts a history, reusing what the previous conversion of the same history gave. The loop
 * appends to its history and never rewrites a message (a message is immutable once in a history,
 * as for `perMessage`), so a model call resends the previous call's messages plus a few new ones:
 * only the new tail is checked and converted. The walk that finds the shared prefix compares object
 * identity only, so a different array sharing a prefix, a shorter one or a replaced message are
 * all reconverted from where they differ, never trusted.
 *
 * Histories are told apart by their first message (a new exec copies its history into a new array,
 * so the array is not a stable key) and `variant` (e.g. the provider name). Each key keeps its last
 * conversion only, weakly: it lives as long as the caller keeps that first message.
 *
 * The returned array is new on each call and may be changed by the caller; the items in it are
 * shared with later calls and must not be.
 */
export function incrementalHistory<Item>(
  converter: HistoryConverter<Item>,
): (messages: readonly Message[], variant?: string) => Item[] {
  const memo = new WeakMap<Message, Map<string, Entry<Item>>>()
  return (messages, variant = '') => {
    const first = messages[0]
    if (first === undefined) return []
    let byVariant = memo.get(first)
    if (!byVariant) memo.set(first, (byVariant = new Map()))
    const entry = byVariant.get(variant) ?? { messages: [], items: [], groupStarts: [], itemStarts: [] }

    const limit = Math.min(entry.messages.length, messages.length)
    let shared = 0
    while (shared < limit && entry.messages[shared] === messages[shared]) shared++
    // The group holding the last shared message may go on with the new ones: convert it again.
    let kept = entry.groupStarts.length
    while (kept > 0 && entry.groupStarts[kept - 1]! > shared - 1) kept--
    if (kept > 0) kept--
    const from = entry.groupStarts[kept] ?? 0
    const itemsFrom = entry.itemStarts[kept] ?? 0

    converter.check(messages, from, variant)
    // Converted aside and committed after: a conversion that throws leaves the entry as it was.
    const items: Item[] = []
    const groupStarts: number[] = []
    const itemStarts: number[] = []
    for (let start = from; start < messages.length;) {
      let end = start + 1
      while (end < messages.length && converter.joins(messages[end - 1]!, messages[end]!, variant)) end++
      groupStarts.push(start)
      itemStarts.push(itemsFrom + items.length)
      converter.convert(messages, start, end, variant, items)
      start = end
    }

    entry.messages.length = from
    for (let i = from; i < messages.length; i++) entry.messages.push(messages[i]!)
    entry.items.length = itemsFrom
    for (const item of items) entry.items.push(item)
    entry.groupStarts.length = kept
    for (const start of groupStarts) entry.groupStarts.push(start)
    entry.itemStarts.length = kept
    for (const start of itemStarts) entry.itemStarts.push(start)
    byVariant.set(variant, entry)
    return entry.items.slice()
  }
}
