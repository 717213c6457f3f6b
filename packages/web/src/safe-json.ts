/**
 * JSON for what goes on the wire: events carry tool arguments and results, which may hold values
 * JSON cannot (a BigInt, a cycle, a `toJSON` that throws). Such a value becomes a string marker
 * instead of killing the stream; the fast path is plain `JSON.stringify`.
 */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null'
  } catch {
    return tolerant(value)
  }
}

function tolerant(value: unknown): string {
  // Ancestors of the value being written: a value that is its own ancestor is a cycle (a value
  // met twice side by side is not, and is written twice like JSON.stringify would).
  const ancestors: unknown[] = []
  const replacer = function (this: unknown, _key: string, current: unknown): unknown {
    if (ancestors.length > 0) {
      const at = ancestors.indexOf(this)
      if (at === -1) ancestors.push(this)
      else ancestors.length = at + 1
    } else ancestors.push(this)
    if (typeof current === 'bigint') return current.toString()
    if (typeof current === 'object' && current !== null && ancestors.includes(current)) return '[Circular]'
    return current
  }
  try {
    return JSON.stringify(value, replacer) ?? 'null'
  } catch {
    // A getter or toJSON that throws: say what it was, never the thrown message.
    return JSON.stringify('[Unserializable]')
  }
}
