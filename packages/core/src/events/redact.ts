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
  return walkTree(value, longestFirst(secrets), false) as T
}

const isPlain = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/**
 * How deep a walk goes before it assumes a cycle. Events and messages are a few levels deep, so
 * the common walk needs no memo of visited objects (a Map per event was most of its cost); a
 * deeper value is walked again with the memo, which ends cycles at the original.
 */
const MAX_PLAIN_DEPTH = 64
const tooDeep = Symbol('too deep')

function walkTree(value: unknown, secrets: readonly string[], always: boolean, sealed?: Sealed): unknown {
  try {
    return walk(value, secrets, undefined, always, sealed, 0)
  } catch (thrown) {
    if (thrown !== tooDeep) throw thrown
    return walk(value, secrets, new Map(), always, sealed, 0)
  }
}

/** `memo` undefined: no cycle bookkeeping, and the walk gives up past MAX_PLAIN_DEPTH. */
function walk(
  value: unknown,
  secrets: readonly string[],
  memo: Map<object, unknown> | undefined,
  always: boolean,
  sealed: Sealed | undefined,
  depth: number,
): unknown {
  if (typeof value === 'string') return replaceOrdered(value, secrets)
  if (typeof value !== 'object' || value === null || isSealed(sealed, value)) return value
  if (memo) {
    const known = memo.get(value)
    if (known !== undefined) return known
  } else if (depth > MAX_PLAIN_DEPTH) throw tooDeep
  if (value instanceof Error) {
    // Errors are redacted in place, once: always with a memo, as their graphs may loop.
    const errors = memo ?? new Map<object, unknown>()
    errors.set(value, value)
    redactError(value, secrets, errors, sealed)
    return value
  }
  const next = depth + 1
  if (Array.isArray(value)) {
    // Registered before the children are walked, so a cycle ends at the original.
    memo?.set(value, value)
    let copy: unknown[] | undefined = always ? value.slice() : undefined
    if (copy) memo?.set(value, copy)
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      // Numbers, booleans and null are returned as they are: no call for them. Nor for a sealed
      // item: agent_end's history is hundreds of them.
      if (typeof item !== 'object' && typeof item !== 'string') continue
      if (typeof item === 'object' && item !== null && sealed !== undefined && sealed.clean.get(item) === sealed.key)
        continue
      const redacted = walk(item, secrets, memo, always, sealed, next)
      if (redacted !== item) {
        if (!copy) {
          copy = value.slice()
          memo?.set(value, copy)
        }
        copy[i] = redacted
      }
    }
    return copy ?? value
  }
  if (!isPlain(value)) return value
  const source = value as Record<string, unknown>
  memo?.set(value, value)
  let copy: Record<string, unknown> | undefined = always ? { ...source } : undefined
  if (copy) memo?.set(value, copy)
  for (const key in source) {
    const item = source[key]
    if (typeof item !== 'object' && typeof item !== 'string') continue
    const redacted = walk(item, secrets, memo, always, sealed, next)
    if (redacted !== item) {
      if (!copy) {
        copy = { ...source }
        memo?.set(value, copy)
      }
      copy[key] = redacted
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
        : walk(item, secrets, memo, false, sealed, 0)
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
    const next = walk(items[i], secrets, memo, false, sealed, 0)
    if (next !== items[i]) {
      try {
        items[i] = next
      } catch {
        return items.map((item) => walk(item, secrets, memo, false, sealed, 0))
      }
    }
  }
  return items
}

/** True when some string inside `value` contains a secret. Reads only; allocates nothing. */
function holdsSecret(value: unknown, secrets: readonly string[], sealed?: Sealed): boolean {
  try {
    return holds(value, secrets, undefined, sealed, 0)
  } catch (thrown) {
    if (thrown !== tooDeep) throw thrown
    return holds(value, secrets, new Set(), sealed, 0)
  }
}

/** `seen` undefined: no cycle bookkeeping, and the check gives up past MAX_PLAIN_DEPTH. */
function holds(
  value: unknown,
  secrets: readonly string[],
  seen: Set<object> | undefined,
  sealed: Sealed | undefined,
  depth: number,
): boolean {
  if (typeof value === 'string') {
    for (const secret of secrets) if (value.includes(secret)) return true
    return false
  }
  if (typeof value !== 'object' || value === null || isSealed(sealed, value)) return false
  if (seen) {
    if (seen.has(value)) return false
    seen.add(value)
  } else if (depth > MAX_PLAIN_DEPTH) throw tooDeep
  if (Array.isArray(value)) {
    for (const item of value)
      if (typeof item === 'object' || typeof item === 'string')
        if (holds(item, secrets, seen, sealed, depth + 1)) return true
    return false
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key]
    if (typeof item === 'object' || typeof item === 'string')
      if (holds(item, secrets, seen, sealed, depth + 1)) return true
  }
  return false
}

/**
 * The redactor every exec applies to its events, made cheap for the hot cases: a `message_delta`
 * holds only fresh strings, so it is checked, not copied; an event that carries only objects Nestor
 * has finished is checked and passes through when clean; a message or tool result that ended
 * without a secret is sealed, so later events that carry it again (turn_end, agent_end with the
 * whole history) skip it. An event pointing at an object that may still change (the streaming
 * reply, a body's arguments, a tool's updates or details) is a redacted snapshot: copied, since a
 * live object could gain a secret after it was redacted.
 */
export type EventRedactor = (<T>(value: T) => T) & {
  /** Seals finished messages (prior history) that hold no secret, so events pass them through. */
  seal(messages: readonly object[]): void
}

/**
 * Event types whose payloads hold only objects Nestor has finished, unless a tool result in them
 * has `details` (checked per event). agent_end is not one: its history may hold such results.
 */
const FINAL_EVENTS: ReadonlySet<string> = new Set([
  'agent_start',
  'turn_start',
  'message_start',
  'message_end',
  'tool_end',
  'turn_end',
  'retry',
])

/** Objects a redactor passes through uncopied. */
type Sealed = { readonly clean: WeakMap<object, string>; readonly key: string }

/** Data, not a closure: the check is a map lookup, written out where it runs per array item. */
const isSealed = (sealed: Sealed | undefined, value: object): boolean =>
  sealed !== undefined && sealed.clean.get(value) === sealed.key

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
  const sealed: Sealed = { clean: cleanFor, key }
  const has = (text: string) => {
    for (const secret of ordered) if (text.includes(secret)) return true
    return false
  }
  /** Marks `value` sealed when it holds none of the secrets. */
  const sealIfClean = (value: object) => {
    if (cleanFor.get(value) !== key && !holdsSecret(value, ordered)) cleanFor.set(value, key)
  }
  const redact = <T>(value: T): T => {
    const event = value as { type?: unknown; delta?: Record<string, unknown>; message?: { role?: unknown } }
    if (typeof event !== 'object' || event === null) return walkTree(value, ordered, true, sealed) as T
    if (event.type === 'message_delta' && event.delta) {
      const delta = event.delta
      let dirty = false
      for (const key in delta) if (typeof delta[key] === 'string' && has(delta[key] as string)) dirty = true
      if (!dirty) return value
      return { ...event, delta: redactDeep(delta, ordered) } as T
    }
    // A message is final at its message_start and message_end (a reply still streaming is
    // published as a snapshot, stream-turn.ts): a clean message is sealed, so this and every
    // later event carrying it pass it through uncopied. A
    // tool result is final at tool_end too; not one with `details`, the tool's own object, which
    // could still change. Its receipt is final there too (a plain record of the call), so
    // agent_end and the run's result, which list every receipt again, pass a clean one through.
    let live = !FINAL_EVENTS.has(event.type as string)
    if (event.type === 'message_start' || event.type === 'message_end') {
      const message = event.message as { role?: unknown; details?: unknown } | undefined
      if (!message) live = true
      else if (message.details !== undefined) live = true
      else sealIfClean(message)
    } else if (event.type === 'tool_end') {
      const { result, receipt } = event as { result?: { role?: unknown; details?: unknown }; receipt?: object }
      if (result?.role === 'toolResult' && result.details === undefined) sealIfClean(result)
      else live = true
      if (receipt && isPlain(receipt)) sealIfClean(receipt)
    } else if (event.type === 'turn_end') {
      const results = (event as { toolResults?: { details?: unknown }[] }).toolResults
      if (results?.some((result) => result.details !== undefined)) live = true
    }
    // Events whose objects may still change after the event (the streaming reply, arguments a
    // body can modify, a tool's own updates and details, agent_end's history, any event type not
    // known here) are copied: a redacted snapshot. The rest hold only what Nestor finished and
    // never changes again, so they are checked and copied only where a secret was found.
    return walkTree(value, ordered, live, sealed) as T
  }
  /** The index of the first message not sealed for these secrets, from `from` (the length if none). */
  const firstUnsealed = (messages: readonly object[], from: number) => {
    for (let i = from; i < messages.length; i++) if (cleanFor.get(messages[i]!) !== key) return i
    return messages.length
  }
  const seal = (messages: readonly object[]) => {
    // A prior message found clean for these secrets by an earlier exec is not walked again. The
    // scan is its own function, apart from the walk: it runs over the whole history every exec.
    for (let i = firstUnsealed(messages, 0); i < messages.length; i = firstUnsealed(messages, i + 1))
      sealIfClean(messages[i]!)
  }
  return Object.assign(redact, { seal })
}
