/**
 * Converts each history message (or tool spec) once, not on every request. A long conversation sends the same
 * message objects turn after turn (the loop appends to its history, it never rewrites a message),
 * so an adapter memoises the provider form per message object and rebuilds only the array. The memo
 * is weak: it lives as long as the caller keeps the message. A message must not be mutated once it
 * is in a history (it is also what events and run state carry); give a new object instead.
 *
 * `variant` keys conversions that depend on more than the message (the provider name when item ids
 * are replayed only to their own provider): a different variant converts again.
 */
export function perMessage<M extends object, R>(
  convert: (message: M, variant: string) => R,
): (message: M, variant?: string) => R {
  const memo = new WeakMap<M, { variant: string; value: R }>()
  return (message, variant = '') => {
    const hit = memo.get(message)
    if (hit && hit.variant === variant) return hit.value
    const value = convert(message, variant)
    memo.set(message, { variant, value })
    return value
  }
}
