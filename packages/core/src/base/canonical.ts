/** JSON with object keys sorted at every level: equal arguments give equal strings. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonicalJson(value[i])
    return `${out}]`
  }
  const keys = Object.keys(value).sort()
  let out = '{'
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key]
    if (item === undefined) continue
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(item)}`
  }
  return `${out}}`
}

/**
 * Signatures already computed, per arguments object: a call's signature is asked for by the
 * duplicate check, the receipt and the journal. Arguments are not changed once a call has them.
 */
const signatures = new WeakMap<object, { name: string; signature: string }>()

/** A tool call's identity for duplicate detection, breakers and caches: name + canonical arguments. */
export function callSignature(name: string, args: unknown): string {
  if (typeof args !== 'object' || args === null) return `${name}:${canonicalJson(args)}`
  const known = signatures.get(args)
  if (known && known.name === name) return known.signature
  const signature = `${name}:${canonicalJson(args)}`
  signatures.set(args, { name, signature })
  return signature
}
