/** The fence that opens a call in the text tool protocol; a line of three backticks closes it. */
export const CALL_OPEN = '```tool_call'
const CALL_CLOSE = '```'

export type ParsedPiece = { kind: 'text'; text: string } | { kind: 'call'; body: string; closed: boolean }

/**
 * Splits streamed text into plain text and ```tool_call blocks. Text is released as soon as it
 * cannot be the start of a fence, so streaming stays live; a block is released when it closes.
 */
export class ToolBlockParser {
  private buffer = ''
  private inCall = false

  push(delta: string): ParsedPiece[] {
    this.buffer += delta
    const out: ParsedPiece[] = []
    for (;;) {
      if (!this.inCall) {
        const at = this.buffer.indexOf(CALL_OPEN)
        if (at === -1) {
          const keep = partialSuffix(this.buffer, CALL_OPEN)
          const text = this.buffer.slice(0, this.buffer.length - keep)
          if (text) out.push({ kind: 'text', text })
          this.buffer = this.buffer.slice(text.length)
          return out
        }
        if (at > 0) out.push({ kind: 'text', text: this.buffer.slice(0, at) })
        this.buffer = this.buffer.slice(at + CALL_OPEN.length)
        this.inCall = true
      } else {
        const end = closingFence(this.buffer)
        if (end === -1) return out
        out.push({ kind: 'call', body: this.buffer.slice(0, end).trim(), closed: true })
        this.buffer = this.buffer.slice(end + CALL_CLOSE.length)
        this.inCall = false
      }
    }
  }

  /** End of stream: held-back text is text; an unclosed block is a (malformed) call. */
  end(): ParsedPiece[] {
    const rest = this.buffer
    this.buffer = ''
    if (this.inCall) {
      this.inCall = false
      return [{ kind: 'call', body: rest.trim(), closed: false }]
    }
    return rest ? [{ kind: 'text', text: rest }] : []
  }
}

/**
 * Where a block's closing fence is: three backticks at the start of a line, or right after a
 * complete JSON body. Backticks inside a JSON string (`"a ``` b"`) are neither, so they stay in.
 */
function closingFence(buffer: string): number {
  for (let at = buffer.indexOf(CALL_CLOSE); at !== -1; at = buffer.indexOf(CALL_CLOSE, at + 1)) {
    const body = buffer.slice(0, at)
    if (body.endsWith('\n') || body.trim() === '' || isJson(body)) return at
  }
  return -1
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n
  }
  return 0
}

export type DecodedCall = { name: string; arguments: Record<string, unknown>; invalid?: string }

/**
 * A block body → a call. Anything but `{"name": string, "arguments": object}` is malformed: the
 * raw body goes to `invalid` (the loop answers with an invalid-arguments error), and the name is
 * recovered from the text when possible so the error names the right tool.
 */
export function decodeCall(body: string, closed: boolean): DecodedCall {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    value = undefined
  }
  const record =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  const name =
    typeof record?.name === 'string' && record.name
      ? record.name
      : (/"name"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? 'tool_call')
  const args = record?.arguments ?? {}
  if (
    closed &&
    record &&
    typeof record.name === 'string' &&
    typeof args === 'object' &&
    args !== null &&
    !Array.isArray(args)
  ) {
    return { name, arguments: args as Record<string, unknown> }
  }
  return { name, arguments: {}, invalid: body || '(empty tool_call block)' }
}
