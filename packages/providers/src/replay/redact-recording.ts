import { DeltaGuard, redactDeep } from '@nestor/core/integration-kit'

type RecordedEvent = { type: string; delta?: unknown; id?: unknown; toolCall?: { id?: unknown } }

/**
 * Redacts a recorded stream (events as JSON) so that no file lets anyone rebuild a secret. Each
 * delta stream (a text block, a thinking block, one tool call's arguments) is judged as a whole:
 * where the joined text holds a secret, its deltas are re-cut by a DeltaGuard, so joined they
 * equal the redacted text of the final message and no piece holds part of a secret; a stream
 * without a secret keeps its chunking exactly. Every other string goes through `redactDeep`.
 */
export function redactRecording(events: readonly unknown[], secrets: readonly string[]): unknown[] {
  const ordered = secrets.filter((s) => s.length >= 4)
  if (ordered.length === 0) return [...events]
  const keys = streamKeys(events as RecordedEvent[])
  const joined = new Map<string, string>()
  events.forEach((event, i) => {
    const key = keys[i]
    if (key !== undefined) joined.set(key, (joined.get(key) ?? '') + String((event as RecordedEvent).delta))
  })
  const dirty = new Set([...joined].filter(([, text]) => ordered.some((s) => text.includes(s))).map(([key]) => key))
  if (dirty.size === 0) return redactDeep([...events], ordered)

  const guard = new DeltaGuard(ordered)
  const open = new Map<string, RecordedEvent>()
  const out: unknown[] = []
  // What a stream held back is released as one more delta, before the event that ends the stream.
  const release = (key: string) => {
    const template = open.get(key) as RecordedEvent
    open.delete(key)
    const rest = guard.flush(key)
    if (rest) out.push({ ...template, delta: rest })
  }
  events.forEach((raw, i) => {
    const event = raw as RecordedEvent
    const key = keys[i]
    for (const held of [...open.keys()]) if (held !== key && endsStream(held, event)) release(held)
    if (key !== undefined && dirty.has(key)) {
      open.set(key, event)
      out.push({ ...event, delta: guard.feed(key, String(event.delta)) })
      return
    }
    out.push(redactDeep(event, ordered))
  })
  for (const held of [...open.keys()]) release(held)
  return out
}

/**
 * The stream each delta belongs to: consecutive text (or thinking) deltas form one block, the way
 * a replay rebuilds the message; tool call arguments belong to their call id.
 */
function streamKeys(events: RecordedEvent[]): (string | undefined)[] {
  let block = 0
  let previous: string | undefined
  return events.map((event) => {
    if (event.type === 'text_delta' || event.type === 'thinking_delta') {
      if (previous !== event.type) block++
      previous = event.type
      return `${event.type}:${block}`
    }
    if (event.type === 'toolcall_delta') {
      previous = event.type
      return `toolcall:${String(event.id)}`
    }
    previous = event.type
    return undefined
  })
}

/** A text or thinking block ends at any other event; a tool call's arguments end at its toolcall_end. */
function endsStream(key: string, event: RecordedEvent): boolean {
  if (!key.startsWith('toolcall:')) return true
  if (event.type === 'toolcall_end') return `toolcall:${String(event.toolCall?.id)}` === key
  return event.type === 'done' || event.type === 'error'
}
