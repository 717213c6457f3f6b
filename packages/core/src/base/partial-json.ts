/**
 * Best-effort parse of a JSON prefix, for `partial_output` while a typed answer streams.
 * Whatever is complete is kept; an unfinished string is kept as far as it streamed; an unfinished
 * number, literal or key (and a key without its value) is left out, so a partial value never
 * holds a token the model has not finished. Returns `undefined` when nothing usable streamed yet.
 */
export function parsePartialJson(text: string): unknown {
  const parser = new PrefixParser(text)
  parser.skipSpace()
  // Models sometimes wrap the JSON in a fenced block: skip the fence when one opens the answer.
  if (text.startsWith('```', parser.at)) {
    const newline = text.indexOf('\n', parser.at)
    if (newline === -1) return undefined
    parser.at = newline + 1
  }
  const value = parser.value()
  return value === INCOMPLETE ? undefined : value
}

const INCOMPLETE = Symbol('incomplete')
type Parsed = unknown | typeof INCOMPLETE

class PrefixParser {
  at = 0
  constructor(private readonly text: string) {}

  skipSpace(): void {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text[this.at]!)) this.at++
  }

  value(): Parsed {
    this.skipSpace()
    const c = this.text[this.at]
    if (c === undefined) return INCOMPLETE
    if (c === '{') return this.object()
    if (c === '[') return this.array()
    if (c === '"') return this.string(true)
    return this.scalar()
  }

  private object(): Parsed {
    const out: Record<string, unknown> = {}
    this.at++
    while (true) {
      this.skipSpace()
      const c = this.text[this.at]
      if (c === undefined) return out
      if (c === '}') return (this.at++, out)
      if (c === ',') {
        this.at++
        continue
      }
      if (c !== '"') return out
      const key = this.string(false)
      if (key === INCOMPLETE) return out
      this.skipSpace()
      if (this.text[this.at] !== ':') return out
      this.at++
      const value = this.value()
      if (value === INCOMPLETE) return out
      out[key as string] = value
    }
  }

  private array(): Parsed {
    const out: unknown[] = []
    this.at++
    while (true) {
      this.skipSpace()
      const c = this.text[this.at]
      if (c === undefined) return out
      if (c === ']') return (this.at++, out)
      if (c === ',') {
        this.at++
        continue
      }
      const value = this.value()
      if (value === INCOMPLETE) return out
      out.push(value)
    }
  }

  /** A string; an unfinished one counts only where `partialOk` (values, not keys). */
  private string(partialOk: boolean): Parsed {
    let raw = ''
    let i = this.at + 1
    while (i < this.text.length) {
      const c = this.text[i]!
      if (c === '"') {
        this.at = i + 1
        return decode(raw)
      }
      if (c === '\\') {
        // An escape cut in the middle is dropped until the rest of it streams.
        const escape = this.text[i + 1] === 'u' ? 6 : 2
        if (i + escape > this.text.length) break
        raw += this.text.slice(i, i + escape)
        i += escape
        continue
      }
      raw += c
      i++
    }
    this.at = this.text.length
    return partialOk ? decode(raw) : INCOMPLETE
  }

  /** A number or a literal; one still streaming (nothing after it yet) is incomplete. */
  private scalar(): Parsed {
    const match = /^[^,\]}\s]+/.exec(this.text.slice(this.at))
    const token = match?.[0] ?? ''
    this.at += token.length
    if (this.at >= this.text.length) return INCOMPLETE
    try {
      return JSON.parse(token) as unknown
    } catch {
      return INCOMPLETE
    }
  }
}

/** The string's escapes resolved; raw control characters (invalid JSON, but seen from models) kept. */
function decode(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return raw
  }
}
