/** Replaces every occurrence of each secret with [REDACTED]. Empty and very short secrets are ignored. */
export function redactString(text: string, secrets: readonly string[]): string {
  return replaceOrdered(text, secrets.length > 1 ? longestFirst(secrets) : secrets)
}

/** redactString for secrets already ordered longest first (the walks sort once, not per string). */
function replaceOrdered(text: string, ordered: readonly string[]): string {
  let out = text
  for (const secret of ordered) {
    if (secret.length < 4) continue
    if (out.includes(secret)) out = out.split(secret).join('[REDACTED]')
  }
  return out
}

/** A secret that contains another must be replaced first, or a tail of it would survive. */
const longestFirst = (secrets: readonly string[]): string[] => [...secrets].sort((a, b) => b.length - a.length)

/**
 * Returns a copy of `value` with every string passed through `redactString`. Plain objects and
 * arrays are copied only where something changed, so the common case (no secret present)
 * allocates nothing. An object reached twice (a message in both `messages` and `history`) is
 * redacted at both places.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value
  return walk(value, longestFirst(secrets), new Map(), false) as T
}

const isPlain = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

function walk(
  value: unknown,
  secrets: readonly string[],
  memo: Map<object, unknown>,
  always: boolean,
  sealed?: Sealed,
): unknown {
  if (typeof value === 'string') return replaceOrdered(value, secrets)
  if (typeof value !== 'object' || value === null || sealed?.has(value)) return value
  const known = memo.get(value)
  if (known !== undefined) return known
  if (value instanceof Error) {
    memo.set(value, value)
    redactError(value, secrets, memo, sealed)
    return value
  }
  if (Array.isArray(value)) {
    // Registered before the children are walked, so a cycle ends at the original.
    memo.set(value, value)
    let copy: unknown[] | undefined = always ? value.slice() : undefined
    if (copy) memo.set(value, copy)
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      // Numbers, booleans and null are returned as they are: no call for them.
      if (typeof item !== 'object' && typeof item !== 'string') continue
      const next = walk(item, secrets, memo, always, sealed)
      if (next !== item) {
        if (!copy) memo.set(value, (copy = value.slice()))
        copy[i] = next
      }
    }
    return copy ?? value
  }
  if (!isPlain(value)) return value
  const source = value as Record<string, unknown>
  memo.set(value, value)
  let copy: Record<string, unknown> | undefined = always ? { ...source } : undefined
  if (copy) memo.set(value, copy)
  for (const key in source) {
    const item = source[key]
    if (typeof item !== 'object' && typeof item !== 'string') continue
    const next = walk(item, secrets, memo, always, sealed)
    if (next !== item) {
      if (!copy) memo.set(value, (copy = { ...source }))
      copy[key] = next
    }
  }
  return copy ?? value
}

/**
 * Errors keep their identity (code, class, isInstance); their whole graph is redacted in place:
 * message, stack, `cause` (nested errors, strings, plain data), `AggregateError.errors` and any
 * other own field. A getter that throws or a frozen error is skipped, never a crash: redaction
 * runs on the way out of a failure and must not replace it with another.
 */
function redactError(error: Error, secrets: readonly string[], memo: Map<object, unknown>, sealed?: Sealed): void {
  for (const key of new Set([...Object.getOwnPropertyNames(error), 'message', 'stack', 'cause'])) {
    let item: unknown
    try {
      item = (error as unknown as Record<string, unknown>)[key]
    } catch {
      continue
    }
    // `errors` of an AggregateError is a live array: its entries are redacted where they stand.
    const next =
      Array.isArray(item) && key === 'errors'
        ? redactEach(item, secrets, memo, sealed)
        : walk(item, secrets, memo, false, sealed)
    if (next === item) continue
    try {
      Object.defineProperty(error, key, {
        value: next,
        writable: true,
        configurable: true,
        enumerable: Object.prototype.propertyIsEnumerable.call(error, key),
      })
    } catch {
      // A frozen or non-configurable field cannot be rewritten; nothing else can be done here.
    }
  }
}

function redactEach(
  items: unknown[],
  secrets: readonly string[],
  memo: Map<object, unknown>,
  sealed?: Sealed,
): unknown[] {
  for (let i = 0; i < items.length; i++) {
    const next = walk(items[i], secrets, memo, false, sealed)
    if (next !== items[i]) {
      try {
        items[i] = next
      } catch {
        return items.map((item) => walk(item, secrets, memo, false, sealed))
      }
    }
  }
  return items
}

/** True when some string inside `value` contains a secret. Reads only; allocates nothing. */
function holdsSecret(value: unknown, secrets: readonly string[], seen: Set<object>): boolean {
  if (typeof value === 'string') {
    for (const secret of secrets) if (value.includes(secret)) return true
    return false
  }
  if (typeof value !== 'object' || value === null || seen.has(value)) return false
  seen.add(value)
  if (Array.isArray(value)) {
    for (const item of value) if (holdsSecret(item, secrets, seen)) return true
    return false
  }
  for (const key in value) if (holdsSecret((value as Record<string, unknown>)[key], secrets, seen)) return true
  return false
}

/**
 * The redactor every exec applies to its events: a redacted snapshot (every plain object and
 * array copied, because an event may point at a live object that gains a secret later), made cheap for
 * the two hot cases: a `message_delta` holds only fresh strings, so it is checked, not copied;
 * and a message that ended without a secret is sealed, so later events that carry it again
 * (turn_end, agent_end with the whole history) pass it through instead of copying it.
 */
export type EventRedactor = (<T>(value: T) => T) & {
  /** Seals finished messages (prior history) that hold no secret, so events pass them through. */
  seal(messages: readonly object[]): void
}

/** Objects a redactor passes through uncopied. */
type Sealed = { has(value: object): boolean }

/**
 * History messages known to hold none of a set of secrets (the set's key): a conversation passes
 * the same messages to exec after exec, and each exec seals its prior history. Weak: keeps nothing.
 */
const cleanFor = new WeakMap<object, string>()

export function eventRedactor(secrets: readonly string[]): EventRedactor {
  const ordered = longestFirst(secrets.filter((s) => s.length >= 4))
  if (ordered.length === 0) return Object.assign(<T>(value: T): T => value, { seal: () => {} })
  const key = ordered.join('\u0000')
  // Sealed = known to hold none of these secrets. Kept in the shared weak map, so a message
  // sealed by one exec (its message_end) is passed through by the next exec's events too.
  const sealed: Sealed = { has: (value) => cleanFor.get(value) === key }
  const has = (text: string) => {
    for (const secret of ordered) if (text.includes(secret)) return true
    return false
  }
  const redact = <T>(value: T): T => {
    const event = value as { type?: unknown; delta?: Record<string, unknown>; message?: object }
    if (event && event.type === 'message_delta' && event.delta) {
      const delta = event.delta
      let dirty = false
      for (const key in delta) if (typeof delta[key] === 'string' && has(delta[key] as string)) dirty = true
      if (!dirty) return value
      return { ...event, delta: redactDeep(delta, ordered) } as T
    }
    const memo = new Map<object, unknown>()
    if (event && event.type === 'message_end' && event.message && !holdsSecret(event.message, ordered, new Set())) {
      cleanFor.set(event.message, key)
    }
    // A tool result is final at tool_end too, so turn_end and agent_end can pass it through; not
    // one with `details`, which is the tool's own object and could still change.
    // Its receipt is final there too (a plain record of the call), so agent_end and the run's
    // result, which list every receipt again, pass a clean one through.
    if (event?.type === 'tool_end') {
      const { result, receipt } = event as { result?: { role?: unknown; details?: unknown }; receipt?: object }
      if (result?.role === 'toolResult' && result.details === undefined && !holdsSecret(result, ordered, new Set()))
        cleanFor.set(result, key)
      if (receipt && isPlain(receipt) && !holdsSecret(receipt, ordered, new Set())) cleanFor.set(receipt, key)
    }
    return walk(value, ordered, memo, true, sealed) as T
  }
  const seal = (messages: readonly object[]) => {
    // A prior message found clean for these secrets by an earlier exec is not walked again.
    for (const message of messages)
      if (cleanFor.get(message) !== key && !holdsSecret(message, ordered, new Set())) cleanFor.set(message, key)
  }
  return Object.assign(redact, { seal })
}
