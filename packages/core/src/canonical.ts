/** JSON with object keys sorted at every level: equal arguments give equal strings. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const keys = Object.keys(value).sort()
  const parts: string[] = []
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key]
    if (item === undefined) continue
    parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`)
  }
  return `{${parts.join(',')}}`
}

/** A tool call's identity for duplicate detection, breakers and caches: name + canonical arguments. */
export const callSignature = (name: string, args: unknown): string => `${name}:${canonicalJson(args)}`
