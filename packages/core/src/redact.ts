/** Replaces every occurrence of each secret with [REDACTED]. Empty and very short secrets are ignored. */
export function redactString(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length < 4) continue
    if (out.includes(secret)) out = out.split(secret).join('[REDACTED]')
  }
  return out
}

/**
 * Returns a copy of `value` with every string passed through `redactString`. Objects are copied
 * only where something changed, so the common case (no secret present) allocates nothing.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value
  return walk(value, secrets, new WeakSet()) as T
}

function walk(value: unknown, secrets: readonly string[], seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactString(value, secrets)
  if (typeof value !== 'object' || value === null || seen.has(value)) return value
  seen.add(value)
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const next = walk(value[i], secrets, seen)
      if (next !== value[i]) (copy ??= value.slice())[i] = next
    }
    return copy ?? value
  }
  if (value instanceof Error) {
    const message = redactString(value.message, secrets)
    if (message !== value.message) value.message = message
    return value
  }
  let copy: Record<string, unknown> | undefined
  for (const [key, item] of Object.entries(value)) {
    const next = walk(item, secrets, seen)
    if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next
  }
  return copy ?? value
}
